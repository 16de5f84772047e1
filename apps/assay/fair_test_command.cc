// `assay fair test`: MT-NLP's Algorithm 1 — perturb every input (as `fair perturb`), ask the
// model under test for the original and each perturbation (through the answer cache when
// --cache is given), and report every perturbation whose label differs: violations.jsonl and
// summary.json in --out DIR (written atomically). Exit 1 when violations are found.
// Chunks of inputs are the core runner's units: with --cache each finished chunk is recorded
// in the cache's file, so an interrupted run resumes there; --shard runs a share of them into
// its own cache and --merge gathers the shards' chunks before the outputs are written.
#include <cstdio>
#include <memory>

#include "command.h"
#include "fair_run_options.h"
#include "fairness/fair_run_request.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct FairTestOptions : FairRunOptions {
  double min_delta = 0;
};

int run(const FairTestOptions& o) {
  auto opened = open_fair_run(o);
  auto& fr = *opened.run;
  const auto outcome = fairness::run_fair_test(fr, o.min_delta);
  report_fair_run_gate(o, fr, outcome.progress);
  if (!outcome.progress.complete) return kOk;
  const auto& summary = outcome.summary;
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
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "test", add_fair_test_command)

}  // namespace assay::cli
