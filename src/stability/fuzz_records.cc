#include "stability/fuzz_records.h"

#include <array>

#include "core/summary_stats.h"
#include "stability/oracles.h"

namespace assay::stability {

namespace {

// What names a trial: its algorithm, heuristic, size, number and seed.
nlohmann::ordered_json trial_key(const std::string& algorithm, const RunResult& run) {
  nlohmann::ordered_json j;
  j["algorithm"] = algorithm;
  j["heuristic"] = std::string(to_string(run.key.heuristic));
  j["size"] = run.key.size;
  j["trial"] = run.key.trial;
  j["seed"] = run.seed;
  return j;
}

}  // namespace

nlohmann::ordered_json fuzz_trial_record(const std::string& algorithm, const RunResult& run) {
  auto j = trial_key(algorithm, run);
  j["n_modifications"] = run.n_modifications;
  for (std::size_t k = 0; k < kNumOracles; ++k)
    j[std::string(to_string(kAllOracles[k]))] = run.oracle[k];
  return j;
}

nlohmann::ordered_json fuzz_failure_record(const std::string& algorithm, const RunResult& run,
                                           const std::string& failure,
                                           const std::string& stderr_tail) {
  auto j = trial_key(algorithm, run);
  j["failed"] = failure;
  j["stderr_tail"] = stderr_tail;
  return j;
}

nlohmann::ordered_json fuzz_summary_record(const std::string& algorithm, Heuristic heuristic,
                                           std::size_t size, const std::vector<RunResult>& runs,
                                           std::size_t n_failed) {
  std::array<std::vector<double>, kNumOracles> values;
  for (const auto& r : runs)
    for (std::size_t k = 0; k < kNumOracles; ++k) values[k].push_back(r.oracle[k]);
  nlohmann::ordered_json mean, sd;
  for (std::size_t k = 0; k < kNumOracles; ++k) {
    const auto name = std::string(to_string(kAllOracles[k]));
    mean[name] = core::mean(values[k]);
    const double s = core::standard_deviation(values[k]);
    sd[name] = s == s ? nlohmann::ordered_json(s) : nlohmann::ordered_json(nullptr);
  }
  nlohmann::ordered_json summary;
  summary["summary"] = true;
  summary["algorithm"] = algorithm;
  summary["heuristic"] = std::string(to_string(heuristic));
  summary["size"] = size;
  summary["trials"] = runs.size();
  summary["failed_runs"] = n_failed;
  summary["mean"] = mean;
  summary["sd"] = sd;
  return summary;
}

}  // namespace assay::stability
