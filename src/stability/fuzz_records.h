// The records of a fuzzing session (`assay rec fuzz`'s JSON lines, assay.rec.fuzz's dicts):
// one per trial (algorithm, heuristic, size, trial, seed, n_modifications and each oracle's
// distance) and a summary (each oracle's mean and standard deviation over the trials; null for
// a deviation of one trial).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "stability/campaign_run.h"
#include "stability/heuristic.h"

namespace assay::stability {

nlohmann::ordered_json fuzz_trial_record(const std::string& algorithm, const RunResult& run);
// A trial whose recommender program failed: the trial's key and seed, the reason ("failed")
// and the tail of the program's stderr.
nlohmann::ordered_json fuzz_failure_record(const std::string& algorithm, const RunResult& run,
                                           const std::string& failure,
                                           const std::string& stderr_tail);
// Over the finished `runs`; `n_failed` trials failed besides them ("failed_runs").
nlohmann::ordered_json fuzz_summary_record(const std::string& algorithm, Heuristic heuristic,
                                           std::size_t size, const std::vector<RunResult>& runs,
                                           std::size_t n_failed = 0);

}  // namespace assay::stability
