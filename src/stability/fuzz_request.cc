#include "stability/fuzz_request.h"

#include <atomic>
#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "core/thread_pool.h"
#include "recsys/command_recommender.h"
#include "recsys/recommender_spec.h"
#include "recsys/spec_check.h"
#include "stability/algorithm_baseline.h"
#include "stability/campaign_report.h"
#include "stability/fuzz_records.h"
#include "stability/modification_set_file.h"

namespace assay::stability {
namespace {

// A trial: its result, or why its recommender failed.
struct Trial {
  RunResult run;
  std::string failure, stderr_tail;
};

HeuristicOptions heuristic_options(const FuzzRequest& r) {
  HeuristicOptions h;
  if (!r.portfolio.empty()) {
    h.portfolio.clear();
    for (const auto& p : r.portfolio) h.portfolio.push_back(parse_heuristic(p));
  }
  return h;
}

}  // namespace

void check_fuzz_request(const FuzzRequest& r) {
  if (r.trials == 0) throw core::UsageError("trials: expected at least 1");
  if (r.size == 0) throw core::UsageError("size: expected at least 1 modification per set");
  if (r.k == 0) throw core::UsageError("k: expected at least 1");
  if (r.threads == 0) throw core::UsageError("threads: expected at least 1");
  const auto heuristic = parse_heuristic(r.heuristic);
  if (!r.portfolio.empty() && heuristic != Heuristic::kAportfolio) {
    throw core::UsageError(
        "a portfolio lists APORTFOLIO's heuristics: it needs the heuristic APORTFOLIO, got " +
        r.heuristic);
  }
  (void)heuristic_options(r);
  if (r.delta && (!std::isfinite(*r.delta) || *r.delta < 0)) {
    throw core::UsageError("delta: expected a finite number >= 0, got " + std::to_string(*r.delta));
  }
  recsys::check_recommender_spec(recsys::normalize_recommender_spec(r.algorithm));
}

FuzzOutcome run_fuzz(const FuzzRequest& r, const recsys::Ratings& data) {
  check_fuzz_request(r);
  FuzzOutcome out;
  // The normalised spec names the configuration everywhere (seeds, records, saved sets).
  out.algorithm = recsys::normalize_recommender_spec(r.algorithm);
  const auto& algorithm = out.algorithm;
  const auto heuristic = parse_heuristic(r.heuristic);
  const auto hopts = heuristic_options(r);
  const auto baseline =
      train_baseline(data, algorithm, model_seed(r.seed, algorithm), r.k, r.threads);

  std::vector<Trial> trials(r.trials);
  std::atomic<std::size_t> done{0};
  core::parallel_for(r.threads, 0, r.trials, 1, [&](std::size_t t) {
    if (r.check) r.check();
    const RunKey key{algorithm, heuristic, r.size, t};
    auto& trial = trials[t];
    trial.run.key = key;
    trial.run.seed = run_seed(r.seed, key);
    try {
      trial.run = execute_run(data, baseline, key, trial.run.seed, hopts);
    } catch (const recsys::RecommenderFailure& e) {  // a program's failure is this trial's result
      trial.failure = e.reason();
      trial.stderr_tail = e.stderr_tail();
    }
    if (r.on_trial) r.on_trial(++done, r.trials);
  });

  std::vector<RunResult> finished;
  for (const auto& t : trials) {
    if (t.failure.empty()) {
      out.records.push_back(fuzz_trial_record(algorithm, t.run));
      finished.push_back(t.run);
    } else {
      out.records.push_back(fuzz_failure_record(algorithm, t.run, t.failure, t.stderr_tail));
    }
  }
  out.n_trials = trials.size();
  out.n_failed = trials.size() - finished.size();
  out.records.push_back(fuzz_summary_record(algorithm, heuristic, r.size, finished, out.n_failed));
  double generation = 0;
  for (const auto& run : finished) generation += run.generation_seconds;
  if (!finished.empty())
    out.mean_generation_seconds = generation / static_cast<double>(finished.size());

  // Without a delta every finished trial's set is saved; with it, those exceeding it.
  out.delta_given = r.delta.has_value();
  for (const auto& run : finished) {
    if (r.delta && !(run.oracle[0] > *r.delta)) continue;
    out.n_exceeding += r.delta ? 1 : 0;
    if (r.save_dir.empty()) continue;
    ++out.n_saved;
    std::filesystem::create_directories(r.save_dir);
    SavedModificationSet set;
    set.data = r.data;
    set.key = run.key;
    set.campaign_seed = r.seed;
    set.run_seed = run.seed;
    set.model_seed = baseline.model_seed;
    set.k = r.k;
    set.oracle = run.oracle;
    set.modifications = run_modifications(data, baseline, run.key, run.seed, hopts);
    write_modification_set(
        (std::filesystem::path(r.save_dir) / modification_set_file_name(run.key)).string(), set,
        data);
  }
  return out;
}

}  // namespace assay::stability
