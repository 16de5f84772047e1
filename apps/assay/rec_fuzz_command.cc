// `assay rec fuzz`: one heuristic, one set size, T trials against one algorithm. Prints one JSON
// line per trial (deterministic: same seed, same bytes for any --threads) and a summary line;
// timing goes to stderr. With --delta, exit 1 when some trial's Top Out exceeds it, and the
// offending sets are saved under --save-dir (without --delta, every trial's set is).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/summary_stats.h"
#include "core/thread_pool.h"
#include "option_checks.h"
#include "rec_options.h"
#include "recsys/command_recommender.h"
#include "recsys/data_spec.h"
#include "recsys/recommender_spec.h"
#include "stability/algorithm_baseline.h"
#include "stability/campaign_report.h"
#include "stability/campaign_run.h"
#include "stability/fuzz_records.h"
#include "stability/modification_set_file.h"

namespace assay::cli {
namespace {

struct RecFuzzOptions {
  std::string data;
  std::string algorithm;
  std::string heuristic;
  std::size_t size = 10;
  std::size_t trials = 10;
  std::uint64_t seed = 0;
  std::size_t threads = 1;
  std::size_t k = 10;
  std::vector<std::string> portfolio;
  double delta = -1;
  std::string save_dir;
  std::string out;
  RecProgramOptions program;
};

// A trial whose program failed: its reason (empty for a finished trial).
struct FuzzTrial {
  stability::RunResult run;
  std::string failure, stderr_tail;
};

void write_lines(std::ostream& os, const RecFuzzOptions& o, const std::vector<FuzzTrial>& trials) {
  std::vector<stability::RunResult> finished;
  std::size_t n_failed = 0;
  for (const auto& t : trials) {
    if (t.failure.empty()) {
      core::write_jsonl(os, stability::fuzz_trial_record(o.algorithm, t.run));
      finished.push_back(t.run);
      continue;
    }
    ++n_failed;
    core::write_jsonl(os,
                      stability::fuzz_failure_record(o.algorithm, t.run, t.failure, t.stderr_tail));
  }
  core::write_jsonl(
      os, stability::fuzz_summary_record(o.algorithm, stability::parse_heuristic(o.heuristic),
                                         o.size, finished, n_failed));
}

int run(RecFuzzOptions o) {
  // The normalised spec names the configuration everywhere (seeds, output); unknown names,
  // keys and bad values fail before loading data.
  o.algorithm = recsys::normalize_recommender_spec(o.algorithm);
  check_rec_program(o.algorithm);
  apply_rec_program_options(o.program);
  if (o.trials == 0) throw core::UsageError("--trials must be >= 1");
  if (o.size == 0) throw core::UsageError("--size must be >= 1");
  if (o.k == 0) throw core::UsageError("--top-k must be >= 1");
  const auto heuristic = stability::parse_heuristic(o.heuristic);
  stability::HeuristicOptions hopts;
  if (!o.portfolio.empty()) {
    if (heuristic != stability::Heuristic::kAportfolio)
      throw core::UsageError(
          "--portfolio lists APORTFOLIO's heuristics: it needs --heuristic "
          "APORTFOLIO, got " +
          o.heuristic);
    hopts.portfolio.clear();
    for (const auto& p : o.portfolio) hopts.portfolio.push_back(stability::parse_heuristic(p));
  }
  const auto data = recsys::load_ratings(o.data);
  std::fprintf(stderr, "rec fuzz: %zu users, %zu items, %zu ratings; training %s\n", data.n_users(),
               data.n_items(), data.n_ratings(), o.algorithm.c_str());
  const auto baseline = stability::train_baseline(
      data, o.algorithm, stability::model_seed(o.seed, o.algorithm), o.k, o.threads);

  std::vector<FuzzTrial> trials(o.trials);
  core::parallel_for(o.threads, 0, o.trials, 1, [&](std::size_t t) {
    const stability::RunKey key{o.algorithm, heuristic, o.size, t};
    auto& trial = trials[t];
    trial.run.key = key;
    trial.run.seed = stability::run_seed(o.seed, key);
    try {
      trial.run = stability::execute_run(data, baseline, key, trial.run.seed, hopts);
    } catch (const recsys::RecommenderFailure& e) {  // a program's failure is this trial's result
      trial.failure = e.reason();
      trial.stderr_tail = e.stderr_tail();
    }
  });
  std::vector<stability::RunResult> runs;
  for (const auto& t : trials) {
    if (t.failure.empty()) runs.push_back(t.run);
  }

  if (o.out.empty()) {
    write_lines(std::cout, o, trials);
  } else {
    core::AtomicFileWriter writer(o.out);
    write_lines(writer.stream(), o, trials);
    writer.commit();
  }
  if (runs.size() < trials.size()) {
    std::fprintf(stderr,
                 "rec fuzz: %zu of %zu trials failed (the program's reason is in their "
                 "lines)\n",
                 trials.size() - runs.size(), trials.size());
  }
  double gen = 0;
  for (const auto& r : runs) gen += r.generation_seconds;
  if (!runs.empty()) {
    std::fprintf(stderr, "rec fuzz: mean set generation %.3f ms over %zu trials\n",
                 1e3 * gen / static_cast<double>(runs.size()), runs.size());
  }

  // --save-dir without --delta saves every finished trial's set; with it, those exceeding it.
  const bool check = o.delta >= 0;
  if (!check && o.save_dir.empty()) return kOk;
  std::size_t n_exceeding = 0, n_saved = 0;
  for (const auto& r : runs) {
    if (check && !(r.oracle[0] > o.delta)) continue;
    n_exceeding += check ? 1 : 0;
    if (o.save_dir.empty()) continue;
    ++n_saved;
    std::filesystem::create_directories(o.save_dir);
    stability::SavedModificationSet set;
    set.data = o.data;
    set.key = r.key;
    set.campaign_seed = o.seed;
    set.run_seed = r.seed;
    set.model_seed = baseline.model_seed;
    set.k = o.k;
    set.oracle = r.oracle;
    set.modifications = stability::run_modifications(data, baseline, r.key, r.seed, hopts);
    stability::write_modification_set(
        (std::filesystem::path(o.save_dir) / stability::modification_set_file_name(r.key)).string(),
        set, data);
  }
  if (!o.save_dir.empty()) {
    std::fprintf(stderr, "rec fuzz: %zu sets saved under %s\n", n_saved, o.save_dir.c_str());
  }
  if (!check) return kOk;
  std::fprintf(stderr, "rec fuzz: %zu of %zu trials exceed Top Out %g\n", n_exceeding, runs.size(),
               o.delta);
  // A trial whose retraining failed was not measured: never a pass.
  const bool failed = runs.size() < trials.size();
  return n_exceeding > 0 || failed ? kFailuresFound : kOk;
}

void add_rec_fuzz_command(CLI::App& rec, CommandResult& result) {
  auto o = std::make_shared<RecFuzzOptions>();
  auto* cmd = rec.add_subcommand(
      "fuzz",
      "Apply T modification sets from one heuristic, retrain, measure the oracles; exits 1 when "
      "some trial's instability exceeds δ");
  cmd->add_option("--data", o->data, kRecDataHelp)->required();
  cmd->add_option("--algorithm", o->algorithm, kRecAlgorithmHelp)->required();
  cmd->add_option("--heuristic", o->heuristic,
                  "AMU RMU CMU ALI AMR AMA ARAND RRAND CRAND APORTFOLIO")
      ->required();
  add_count(cmd, "--size", o->size, "Modifications per set", {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--trials", o->trials, "Sets to try", {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--seed", o->seed, "Campaign seed (run seeds derive from it)",
            {.min = 0, .max = std::numeric_limits<std::uint64_t>::max()})
      ->capture_default_str();
  add_count(cmd, "--threads", o->threads, "Trials in parallel", {.min = 1, .max = 4'096})
      ->capture_default_str();
  add_count(cmd, "--top-k", o->k, "Length of the recommendation lists",
            {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  cmd->add_option("--portfolio", o->portfolio, "APORTFOLIO's heuristics (comma separated)")
      ->delimiter(',');
  add_finite(cmd, "--delta", o->delta, "Exit 1 when a trial's Top Out exceeds this (>= 0)",
             {.min = 0});
  add_output_directory(cmd, "--save-dir", o->save_dir,
                       "Save the sets exceeding --delta here (every trial's set without --delta); "
                       "rec replay and rec export read them",
                       {"*.json"});
  add_output_file(cmd, "--out", o->out, "Write the JSON lines to FILE (atomically)");
  add_rec_program_options(cmd, o->program);
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("rec", "Recommender stability: recommend, fuzz, campaign, replay, export",
                       "fuzz", add_rec_fuzz_command)

}  // namespace assay::cli
