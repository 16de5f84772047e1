#include "stability/campaign_run.h"

#include <chrono>

#include "core/unit_plan.h"

namespace assay::stability {

std::string RunKey::to_string() const {
  return algorithm + "/" + std::string(stability::to_string(heuristic)) +
         "/n=" + std::to_string(size) + "/trial=" + std::to_string(trial);
}

std::string run_unit_key(const RunKey& key) {
  return key.algorithm + "|" + std::string(to_string(key.heuristic)) + "|" +
         std::to_string(key.size) + "|" + std::to_string(key.trial);
}

std::string noise_unit_key(const std::string& algorithm, std::size_t trial) {
  return "noise|" + algorithm + "|" + std::to_string(trial);
}

std::uint64_t run_id(const RunKey& key) {
  return core::key_hash(run_unit_key(key));
}

std::string seed_name(const std::string& algorithm) {
  constexpr std::string_view kPersistent = "cmd+persistent:";
  if (!algorithm.starts_with(kPersistent)) return algorithm;
  return "cmd:" + algorithm.substr(kPersistent.size());
}

std::uint64_t run_seed(std::uint64_t campaign_seed, const RunKey& key) {
  RunKey named = key;
  named.algorithm = seed_name(key.algorithm);
  return core::unit_seed(campaign_seed, run_unit_key(named));
}

std::uint64_t model_seed(std::uint64_t campaign_seed, const std::string& algorithm) {
  return core::unit_seed(campaign_seed, "model|" + seed_name(algorithm));
}

std::uint64_t noise_seed(std::uint64_t campaign_seed, const std::string& algorithm,
                         std::size_t trial) {
  return core::unit_seed(campaign_seed, noise_unit_key(seed_name(algorithm), trial));
}

std::vector<recsys::Modification> run_modifications(const recsys::Ratings& data,
                                                    const AlgorithmBaseline& baseline,
                                                    const RunKey& key, std::uint64_t seed,
                                                    const HeuristicOptions& options) {
  return generate_modifications(key.heuristic, data, baseline.influence, key.size, seed, options);
}

RunResult execute_run(const recsys::Ratings& data, const AlgorithmBaseline& baseline,
                      const RunKey& key, std::uint64_t seed, const HeuristicOptions& options) {
  RunResult r;
  r.key = key;
  r.seed = seed;
  const auto start = std::chrono::steady_clock::now();
  const auto mods = run_modifications(data, baseline, key, seed, options);
  r.generation_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.n_modifications = mods.size();
  const auto modified = data.apply(mods);
  const auto after =
      train_and_recommend(modified, baseline.algorithm, baseline.model_seed, baseline.k, 1);
  r.oracle = mean_distances(baseline.top, after);
  return r;
}

}  // namespace assay::stability
