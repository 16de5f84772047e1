// `rec fuzz` as one library run, for the command and assay.rec.fuzz alike: one heuristic, one
// set size, T trials against one algorithm, each trial's set applied, the algorithm retrained
// and the oracles measured (in parallel, the records the same for any thread count); with a
// delta, the trials whose Top Out exceeds it; the sets saved into a directory. The request's
// defaults are the command's, written once, here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "recsys/ratings.h"
#include "stability/campaign_run.h"

namespace assay::stability {

struct FuzzRequest {
  std::string algorithm;               // a spec (normalised by the run: it names the configuration)
  std::string heuristic;               // AMU … APORTFOLIO
  std::size_t size = 10;               // modifications per set
  std::size_t trials = 10;             // sets tried
  std::uint64_t seed = 0;              // run seeds derive from it
  std::size_t threads = 1;             // trials in parallel
  std::size_t k = 10;                  // length of the recommendation lists
  std::vector<std::string> portfolio;  // APORTFOLIO's heuristics (empty: its default four)
  std::optional<double> delta;         // a trial fails when its Top Out exceeds it
  // Where the sets are saved ("" nowhere): with a delta those exceeding it, else every
  // finished trial's. `data` names the data in them (the spec rec replay reads again).
  std::string save_dir, data;
  // Called before each trial, on any thread: throws to stop the run.
  std::function<void()> check;
  // Called after each trial: (trials done, trials in all), on any thread.
  std::function<void(std::size_t, std::size_t)> on_trial;
};

struct FuzzOutcome {
  std::string algorithm;  // the normalised spec
  // One record per trial (fuzz_trial_record, or fuzz_failure_record for a trial whose program
  // failed), in trial order, then the summary (fuzz_summary_record).
  std::vector<nlohmann::ordered_json> records;
  std::size_t n_trials = 0, n_failed = 0;
  std::size_t n_exceeding = 0;         // with a delta: trials whose Top Out exceeds it
  std::size_t n_saved = 0;             // sets saved
  double mean_generation_seconds = 0;  // over the finished trials
  bool delta_given = false;
  // Whether the run fails: with a delta, a trial above it or one not measured (a failed
  // trial is never a pass).
  bool failed() const { return delta_given && (n_exceeding > 0 || n_failed > 0); }
};

// Throws core::UsageError for a trial count, size or k of 0, an unknown heuristic, a portfolio
// beside another heuristic than APORTFOLIO, a delta that is not finite and >= 0, and the errors
// of the spec (recsys::check_recommender_spec); nothing is trained.
void check_fuzz_request(const FuzzRequest& request);

// The run on `data`: checks the request, trains the baseline, runs the trials and saves the
// sets. Throws what training the baseline and writing a set throw; a program's failure in a
// trial is that trial's record.
FuzzOutcome run_fuzz(const FuzzRequest& request, const recsys::Ratings& data);

}  // namespace assay::stability
