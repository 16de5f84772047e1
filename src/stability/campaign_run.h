// One unit of a stability campaign: generate a modification set with a heuristic, apply it,
// retrain, recommend and measure every oracle against the original lists. A run is identified
// by (algorithm, heuristic, size, trial); its id and seed are pure functions of that key and the
// campaign seed, so the same run gives the same numbers in any order, thread or process.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "recsys/ratings.h"
#include "stability/algorithm_baseline.h"
#include "stability/heuristic.h"
#include "stability/oracles.h"

namespace assay::stability {

struct RunKey {
  std::string algorithm;
  Heuristic heuristic = Heuristic::kArand;
  std::size_t size = 1;
  std::size_t trial = 0;
  friend bool operator==(const RunKey&, const RunKey&) = default;
  std::string to_string() const;  // "funk-svd/AMR/n=10/trial=3"
};

struct RunResult {
  RunKey key;
  std::uint64_t seed = 0;
  std::size_t n_modifications = 0;  // may be < size when the data ran out of targets
  double generation_seconds = 0;    // wall time of generate_modifications (not deterministic)
  std::array<double, kNumOracles> oracle{};
};

// The campaign's units (core/unit_plan.h) are named "algorithm|HEURISTIC|size|trial" (a run)
// and "noise|algorithm|trial" (a noise-floor retraining); seeds are core::unit_seed of the
// campaign seed and these names (with seed_name(algorithm)), stable across runs, versions and
// orderings.
std::string run_unit_key(const RunKey& key);
std::string noise_unit_key(const std::string& algorithm, std::size_t trial);

// The name seeds are derived from: the algorithm, except that a persistent program
// (cmd+persistent:X) is seeded as its one-shot form (cmd:X), so the mode changes speed, never
// the numbers.
std::string seed_name(const std::string& algorithm);

// core::key_hash(run_unit_key(key)).
std::uint64_t run_id(const RunKey& key);
std::uint64_t run_seed(std::uint64_t campaign_seed, const RunKey& key);
// The training seed of an algorithm within a campaign (the same for original and retrains):
// core::unit_seed(campaign seed, "model|algorithm").
std::uint64_t model_seed(std::uint64_t campaign_seed, const std::string& algorithm);
// The seed of the t-th noise-floor retraining (same data, other seed).
std::uint64_t noise_seed(std::uint64_t campaign_seed, const std::string& algorithm,
                         std::size_t trial);

// Regenerates a run's modification set (as execute_run does).
std::vector<recsys::Modification> run_modifications(const recsys::Ratings& data,
                                                    const AlgorithmBaseline& baseline,
                                                    const RunKey& key, std::uint64_t seed,
                                                    const HeuristicOptions& options);

// Executes one run with `seed`; retraining is single-threaded (campaigns parallelise runs).
RunResult execute_run(const recsys::Ratings& data, const AlgorithmBaseline& baseline,
                      const RunKey& key, std::uint64_t seed, const HeuristicOptions& options);

}  // namespace assay::stability
