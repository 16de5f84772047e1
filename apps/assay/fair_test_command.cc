// `assay fair test`: MT-NLP's Algorithm 1 — perturb every input (as `fair perturb`), ask the
// model under test for the original and each perturbation (through the answer cache when
// --cache is given), and report every perturbation whose label differs: violations.jsonl and
// summary.json in --out DIR (written atomically). Exit 1 when violations are found.
// Chunks of inputs are the core runner's units: with --cache each finished chunk is recorded
// in the cache's file, so an interrupted run resumes there; --shard runs a share of them into
// its own cache and --merge gathers the shards' chunks before the outputs are written.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/file_lock.h"
#include "core/shard.h"
#include "fair_run_options.h"
#include "fairness/fairness_chunk_store.h"
#include "fairness/fairness_input.h"
#include "fairness/fairness_summary_json.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/perturbator.h"
#include "models/answer_cache.h"
#include "models/cached_model.h"
#include "models/model_spec.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct FairTestOptions : FairRunOptions {
  std::string out;
  std::string shard;
  std::vector<std::string> merge;
};

CLI::Validator shard_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          (void)core::parse_shard(s);
        } catch (const core::Error& e) {
          return e.what();
        }
        return {};
      },
      "I/N|auto");
}

int run(const FairTestOptions& o) {
  const core::Shard shard = o.shard.empty() ? core::Shard{} : core::parse_shard(o.shard);
  if ((!shard.whole() || !o.merge.empty()) && o.model.cache.empty()) {
    throw core::UsageError(std::string(shard.whole() ? "--merge" : "--shard") +
                           " needs --cache FILE (where finished chunks are kept)");
  }
  auto fr = open_fair_run(o);
  const auto& inputs = fr.inputs;
  auto& model = fr.model;
  models::CachedModel* cached = fr.cached;
  const fairness::Perturbator& perturbator = *fr.perturbator;

  // Finished chunks live in the answer cache's file, beside the answers.
  std::unique_ptr<fairness::FairnessChunkStore> store;
  core::FileLock lock;
  std::size_t n_merged = 0;
  if (!o.model.cache.empty()) {
    store = std::make_unique<fairness::FairnessChunkStore>(o.model.cache);
    lock = store->lock();
    for (const auto& other : o.merge) n_merged += store->merge(other);
  }
  fairness::FairnessTestOptions to;
  to.chunk_inputs = o.chunk;
  to.threads = o.threads;
  to.shard = shard;
  to.progress.quiet = o.quiet;
  if (fr.gate) to.filter = fr.gate->filter();
  const auto run = fairness::run_fairness_test(perturbator, *model, inputs, to,
                                               fair_run_settings(o, fr), store.get());
  if (!o.quiet) {
    if (!o.merge.empty())
      std::fprintf(stderr, "merged %zu chunks from %zu stores into %s\n", n_merged, o.merge.size(),
                   o.model.cache.c_str());
    std::fprintf(stderr, "%s%zu chunks of %zu inputs: %zu run now, %zu from %s\n",
                 shard.whole() ? "" : ("shard " + shard.to_string() + ": ").c_str(), run.n_owned,
                 o.chunk, run.n_executed, run.n_resumed,
                 store ? store->path().c_str() : "no store");
  }
  // What the gate did, over every chunk (resumed ones were gated when they ran).
  if (fr.gate) {
    fr.gate->report(run.complete && run.summary.filtered ? *run.summary.filtered
                                                         : fr.gate->counts(),
                    o.quiet);
  }
  if (!run.complete) {
    // A shard's chunks are in its cache; the outputs come from the run that merges them all.
    if (!o.quiet) {
      std::fprintf(stderr,
                   "this shard is done: rerun without --shard, with --merge and every shard's "
                   "cache, to write %s\n",
                   o.out.c_str());
    }
    return kOk;
  }
  const auto& summary = run.summary;
  std::filesystem::create_directories(o.out);
  core::AtomicFileWriter violations(o.out + "/violations.jsonl");
  for (const auto& line : run.violations) violations.stream() << line << '\n';
  violations.commit();

  auto s = fairness::fairness_summary_json(summary, model->identity(),
                                           perturbator.attribute().name);
  if (cached) {
    s["answers_from_cache"] = cached->n_hits();
    s["answers_asked"] = cached->n_queries();
  }
  core::write_file_atomically(o.out + "/summary.json", s.dump(2) + "\n");
  if (!o.quiet) {
    std::fprintf(stderr,
                 "%zu inputs, %zu mutable, %zu perturbations, %zu violations in %zu inputs "
                 "-> %s/violations.jsonl, summary.json\n",
                 summary.n_inputs, summary.n_mutable, summary.n_perturbations, summary.n_violations,
                 summary.n_inputs_violated, o.out.c_str());
    if (cached) {
      std::fprintf(stderr, "answers: %llu from %s, %llu asked of the model\n",
                   static_cast<unsigned long long>(cached->n_hits()), o.model.cache.c_str(),
                   static_cast<unsigned long long>(cached->n_queries()));
    }
  }
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
  cmd->add_option("--shard", o->shard,
                  "Run only shard I of N of the chunks (I/N, or auto: the MPI/Slurm rank), into "
                  "this --cache; a later run with --merge writes the outputs")
      ->check(shard_check());
  cmd->add_option("--merge", o->merge,
                  "Comma separated caches of other shards whose chunks to merge into --cache first")
      ->delimiter(',');
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "test", add_fair_test_command)

}  // namespace assay::cli
