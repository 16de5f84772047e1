// `assay fair test`: MT-NLP's Algorithm 1 — perturb every input (as `fair perturb`), ask the
// model under test for the original and each perturbation (through the answer cache when
// --cache is given), and report every perturbation whose label differs: violations.jsonl and
// summary.json in --out DIR (written atomically). Exit 1 when violations are found.
// Chunks of inputs are the core runner's units: with --cache each finished chunk is recorded
// in the cache's file, so an interrupted run resumes there; --shard runs a share of them into
// its own cache and --merge gathers the shards' chunks before the outputs are written.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "fair_run_options.h"
#include "fairness/fairness_summary_json.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/perturbator.h"
#include "option_checks.h"
#include "shard_options.h"

namespace assay::cli {
namespace {

struct FairTestOptions : FairRunOptions {
  std::string out;
  double min_delta = 0;
  ShardOptions sharding;
};

int run(const FairTestOptions& o) {
  const core::Shard shard = shard_of(o.sharding);
  require_store(o.sharding, o.model.cache, "--cache");
  auto fr = open_fair_run(o);
  const fairness::Perturbator& perturbator = *fr.perturbator;

  // Finished chunks live in the answer cache's file, beside the answers.
  const auto store = open_fair_run_store(o, o.sharding, &fairness::open_fair_test_store);
  auto to = runner_options(o, fr, shard, "fair test");
  to.min_delta = o.min_delta;
  const auto run = fairness::run_fairness_test(perturbator, *fr.model, fr.inputs, to,
                                               fair_run_settings(o, fr), store.store.get());
  report_chunked_run({run.n_owned, run.n_executed, run.n_resumed, run.complete}, shard, o.chunk,
                     store.store.get(), "--cache", o.out, o.quiet);
  // What the gate did, over every chunk (resumed ones were gated when they ran).
  if (fr.gate) {
    report_gate(*fr.gate,
                run.complete && run.summary.filtered ? *run.summary.filtered : fr.gate->counts(),
                o.quiet);
  }
  // A shard's chunks are in its cache; the outputs come from the run that merges them all.
  if (!run.complete) return kOk;
  const auto& summary = run.summary;
  std::filesystem::create_directories(o.out);
  core::AtomicFileWriter violations(o.out + "/violations.jsonl");
  for (const auto& line : run.violations) violations.stream() << line << '\n';
  violations.commit();

  auto s = fairness::fairness_summary_json(summary, fr.model->identity(),
                                           perturbator.attribute().name, o.inputs.input);
  if (fr.cached) {
    s["answers_from_cache"] = fr.cached->n_hits();
    s["answers_asked"] = fr.cached->n_queries();
  }
  core::write_file_atomically(o.out + "/summary.json", s.dump(2) + "\n");
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%zu inputs, %zu mutable, %zu perturbations, %zu violations in %zu inputs "
                 "-> %s/violations.jsonl, summary.json\n",
                 summary.n_inputs, summary.n_mutable, summary.n_perturbations, summary.n_violations,
                 summary.n_inputs_violated, o.out.c_str());
  }
  report_answers(o, fr);
  return summary.n_violations > 0 ? kFailuresFound : kOk;
}

void add_fair_test_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairTestOptions>();
  auto* cmd = fair.add_subcommand(
      "test",
      "Metamorphic fairness test of a model: labels must not change under perturbation; exits 1 "
      "when some perturbation changes the label");
  add_fair_run_options(cmd, *o);
  add_output_directory(cmd, "--out", o->out, "Directory for violations.jsonl and summary.json",
                       {"violations.jsonl", "summary.json"})
      ->required();
  add_finite(cmd, "--min-delta", o->min_delta,
             "Count a changed label as a violation only when the original label's score fell by "
             "at least this much (0: every changed label); summary.json counts them at 0, 0.1, "
             "0.2, 0.3 and this value too",
             {.min = 0})
      ->capture_default_str();
  add_shard_options(cmd, o->sharding, "--cache");
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "test", add_fair_test_command)

}  // namespace assay::cli
