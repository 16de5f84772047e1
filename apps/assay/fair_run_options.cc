#include "fair_run_options.h"

#include <cstdio>
#include <utility>

#include "fairness/fairness_input.h"
#include "option_checks.h"

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
  add_shard_options(cmd, o.sharding, "--cache");
  cmd->add_flag("--quiet", o.quiet, "No progress or summary on stderr");
}

namespace {

void report_fair_run(const FairRunOptions& o, const fairness::FairRunProgress& progress,
                     const std::string& outputs) {
  report_merged(o.sharding, progress.merged, progress.store, o.quiet);
  report_chunked_run({progress.n_owned, progress.n_executed, progress.n_resumed, progress.complete},
                     shard_of(o.sharding), o.chunk, progress.store, "--cache", outputs, o.quiet);
}

}  // namespace

OpenedFairRun open_fair_run(const FairRunOptions& o) {
  fairness::FairRunRequest request;
  request.perturbator = o.perturbation;
  request.gate = o.gate;
  request.chunk = o.chunk;
  request.threads = o.threads;
  request.shard = shard_of(o.sharding);
  request.merge = o.sharding.merge;
  request.out = o.out;
  request.data = o.inputs.input;
  request.quiet = o.quiet;
  request.on_chunks_done = [&o](const fairness::FairRunProgress& progress) {
    report_fair_run(o, progress, o.out);
  };
  // Bad input, model, perturbator and gate options fail before anything is read or opened.
  (void)text_input_options(o.inputs);
  check_model_open_options(o.model);
  require_store(o.sharding, o.model.cache, "--cache");
  fairness::check_fair_run_request(request);
  auto inputs = read_input(o.inputs, &fairness::read_inputs);
  auto model = open_model_under_test(o.model);
  OpenedFairRun out;
  out.gold =
      gold_indices(*model.model, o.model.adapter, inputs, [&](const fairness::InputRecord& input) {
        return core::SourceLocation(o.inputs.input, input.line);
      });
  out.run =
      std::make_unique<fairness::FairRun>(std::move(request), std::move(inputs), std::move(model));
  return out;
}

void report_answers(const FairRunOptions& o, const fairness::FairRun& run) {
  if (o.quiet || !run.cached()) return;
  std::fprintf(stderr, "answers: %llu from %s, %llu asked of the model\n",
               static_cast<unsigned long long>(run.cached()->n_hits()), o.model.cache.c_str(),
               static_cast<unsigned long long>(run.cached()->n_queries()));
}

void report_fair_run_gate(const FairRunOptions& o, const fairness::FairRun& run,
                          const fairness::FairRunProgress& progress) {
  if (run.gate() && progress.gate_counts) report_gate(*run.gate(), *progress.gate_counts, o.quiet);
}

}  // namespace assay::cli
