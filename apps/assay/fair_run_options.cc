#include "fair_run_options.h"

#include <cstdio>
#include <utility>

#include "option_checks.h"
#include "version.h"

namespace assay::cli {

void add_fair_run_options(CLI::App* cmd, FairRunOptions& o) {
  add_model_open_options(cmd, o.model);
  add_input_options(cmd, o.inputs);
  add_count(cmd, "--chunk", o.chunk, "Inputs perturbed per model round",
            {.min = 1, .max = 100'000'000})
      ->capture_default_str();
  add_count(cmd, "--threads", o.threads,
            "Threads perturbing inputs (0 = every core); outputs do not depend on it",
            {.min = 0, .max = 4'096})
      ->capture_default_str();
  add_perturbation_options(cmd, o.perturbation);
  add_gate_options(cmd, o.gate);
  cmd->add_flag("--quiet", o.quiet, "No progress or summary on stderr");
}

FairRun open_fair_run(const FairRunOptions& o) {
  // Bad input, model, perturbator and gate options fail before anything is read or opened.
  (void)text_input_options(o.inputs);
  check_model_open_options(o.model);
  auto settings = perturbator_settings(o.perturbation);
  fairness::check_gate_settings(o.gate);
  FairRun run;
  run.inputs = read_input(o.inputs, &fairness::read_inputs);
  run.model = open_model_under_test(o.model, &run.cached);
  run.gold = gold_indices(*run.model, o.model.adapter, run.inputs,
                          [&](const fairness::InputRecord& input) {
                            return core::SourceLocation(o.inputs.input, input.line);
                          });
  open_perturbator(std::move(settings), o.gate, run);
  return run;
}

void open_perturbator(PerturbatorSettings settings, const GateOptions& gate, FairRun& run) {
  auto loaded = fairness::load_gated_perturbator(std::move(settings), gate);
  run.gate = std::move(loaded.gate);
  static_cast<fairness::LoadedPerturbator&>(run) = std::move(loaded);
}

fairness::FairnessTestOptions runner_options(const FairRunOptions& o, const FairRun& run,
                                             const core::Shard& shard, std::string label) {
  return fairness::fairness_test_options(
      {.chunk = o.chunk, .threads = o.threads, .shard = shard, .quiet = o.quiet}, std::move(label),
      run.gate ? run.gate->filter() : fairness::PerturbationFilter{});
}

FairRunStore open_fair_run_store(const FairRunOptions& o, const ShardOptions& sharding,
                                 std::unique_ptr<core::ChunkStore> (*open)(const std::string&)) {
  FairRunStore out;
  if (o.model.cache.empty()) return out;
  out.store = open(o.model.cache);
  out.lock = out.store->lock();
  merge_shards(sharding, *out.store, o.quiet);
  return out;
}

void report_answers(const FairRunOptions& o, const FairRun& run) {
  if (o.quiet || !run.cached) return;
  std::fprintf(stderr, "answers: %llu from %s, %llu asked of the model\n",
               static_cast<unsigned long long>(run.cached->n_hits()), o.model.cache.c_str(),
               static_cast<unsigned long long>(run.cached->n_queries()));
}

std::string fair_run_settings(const FairRunOptions& o, const FairRun& run) {
  return fairness::fair_run_key(std::string("assay ") + kAssayVersion, o.perturbation,
                                *run.perturbator, fairness::gate_settings_key(o.gate));
}

}  // namespace assay::cli
