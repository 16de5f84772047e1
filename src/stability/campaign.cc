#include "stability/campaign.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

#include "core/error.h"
#include "core/shard.h"
#include "core/unit_plan.h"
#include "core/unit_runner.h"
#include "core/unit_store.h"
#include "recsys/external_recommender.h"
#include "recsys/recommender_spec.h"

namespace assay::stability {
namespace {

using KeyTuple = std::tuple<std::string, std::string, std::size_t, std::size_t>;
KeyTuple tuple_of(const RunKey& k) {
  return {k.algorithm, std::string(to_string(k.heuristic)), k.size, k.trial};
}

void validate(const CampaignConfig& c) {
  if (c.algorithms.empty()) throw core::UsageError("a campaign needs at least one algorithm");
  if (c.heuristics.empty()) throw core::UsageError("a campaign needs at least one heuristic");
  if (c.sizes.empty()) throw core::UsageError("a campaign needs at least one set size");
  if (c.trials == 0) throw core::UsageError("a campaign needs at least one trial");
  if (c.k == 0) throw core::UsageError("top-k needs k >= 1");
  for (const auto n : c.sizes) {
    if (n == 0) throw core::UsageError("set sizes must be >= 1");
  }
  if (c.shard.count == 0 || c.shard.index >= c.shard.count) {
    throw core::UsageError("shard " + c.shard.to_string() + ": need 0 <= I < N");
  }
  // Unknown names, keys and bad values throw UsageError before any training; a configuration
  // is named by its normalised spec (the store's key and the seeds' input), once.
  std::set<std::string> seen;
  for (const auto& a : c.algorithms) {
    const std::string id = recsys::normalize_recommender_spec(a);
    if (id != a) {
      throw core::UsageError("algorithm '" + a + "' is not a normalised spec (write " + id + ")");
    }
    if (!seen.insert(id).second) throw core::UsageError("algorithm " + id + " named twice");
  }
}

std::map<std::string, std::string> identity_of(const recsys::Ratings& data,
                                               const CampaignConfig& c) {
  std::string portfolio;
  for (const auto h : c.heuristic_options.portfolio) {
    if (!portfolio.empty()) portfolio += ",";
    portfolio += to_string(h);
  }
  return {
      {"data", c.data_description},
      {"data_shape", std::to_string(data.n_users()) + " users, " + std::to_string(data.n_items()) +
                         " items, " + std::to_string(data.n_ratings()) + " ratings"},
      {"seed", std::to_string(c.seed)},
      {"k", std::to_string(c.k)},
      {"portfolio", portfolio},
      {"format", "assay-rec-campaign/1"}};
}

// identity_of plus what can only be checked by reading: input contents, configurations.
std::map<std::string, std::string> full_identity(const recsys::Ratings& data,
                                                 const CampaignConfig& c) {
  auto identity = identity_of(data, c);
  core::add_input_files(identity, c.input_files);
  for (const auto& a : c.algorithms) {
    // A program is named by its words and the content of its files (an edited script is
    // another recommender, whose runs must not mix with these); an object by its name.
    identity["algorithm:" + a] = recsys::is_external_spec(a)
                                     ? recsys::external_identity(a)
                                     : recsys::parse_recommender_spec(a).full();
  }
  return identity;
}

}  // namespace

std::string work_dir(const CampaignStore& store) {
  return store.path() + ".tmp";
}

std::vector<RunKey> campaign_keys(const CampaignConfig& c) {
  std::vector<RunKey> keys;
  keys.reserve(c.algorithms.size() * c.heuristics.size() * c.sizes.size() * c.trials);
  for (const auto& a : c.algorithms) {
    for (const auto h : c.heuristics) {
      for (const auto n : c.sizes) {
        for (std::size_t t = 0; t < c.trials; ++t) keys.push_back({a, h, n, t});
      }
    }
  }
  return keys;
}

CampaignResults run_campaign(const recsys::Ratings& data, const CampaignConfig& config,
                             CampaignStore& store) {
  validate(config);
  const auto lock = store.lock();
  {
    // Under the lock: files left by a killed process of this store are removed, and the
    // programs' training files of this campaign go here.
    namespace fs = std::filesystem;
    const std::string dir = work_dir(store);
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (ec) throw core::IoError("cannot remove " + dir + ": " + ec.message());
    auto options = recsys::command_recommender_options();
    options.work_dir = dir;
    recsys::set_command_recommender_options(options);
  }
  const auto identity = full_identity(data, config);
  store.check_identity(identity);

  CampaignResults results;
  // Merges first: they only add finished runs, never replace one (the key is the primary key).
  for (const auto& path : config.merge_from) results.n_merged += store.merge(path, identity).first;

  // Baselines: one training per algorithm, using all threads inside recommend_all.
  for (const auto& algorithm : config.algorithms) {
    results.baselines.push_back(train_baseline(data, algorithm, model_seed(config.seed, algorithm),
                                               config.k, config.n_threads));
  }

  // The plan: noise retrainings first (they are few), then the runs trial-major, so an
  // interrupted campaign holds a few trials of every cell rather than all trials of the first
  // algorithms. Each kind is dealt to shards by its position in config order.
  const auto keys = campaign_keys(config);
  core::UnitPlan plan(config.seed);
  const std::size_t n_noise = config.algorithms.size() * config.noise_trials;
  for (std::size_t a = 0; a < config.algorithms.size(); ++a) {
    for (std::size_t t = 0; t < config.noise_trials; ++t) {
      plan.add(noise_unit_key(config.algorithms[a], t), a * config.noise_trials + t);
    }
  }
  std::vector<std::size_t> run_order(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) run_order[k] = k;
  std::stable_sort(run_order.begin(), run_order.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a].trial < keys[b].trial; });
  for (const auto k : run_order) plan.add(run_unit_key(keys[k]), k);

  const auto finished_list = store.finished_keys();
  const std::unordered_set<std::string> finished(finished_list.begin(), finished_list.end());
  core::UnitRunOptions options;
  options.shard = config.shard;
  options.n_threads = config.n_threads;
  options.stop_after = config.stop_after;
  options.label = "stability runs";
  options.progress = config.progress;
  const auto algorithm_index = [&](const std::string& algorithm) {
    return static_cast<std::size_t>(
        std::find(config.algorithms.begin(), config.algorithms.end(), algorithm) -
        config.algorithms.begin());
  };
  std::atomic<std::size_t> n_failed{0};
  const auto report = core::run_units(
      plan, finished,
      [&](const core::PlannedUnit& unit) {
        const std::size_t u = plan.find(unit.key);
        try {
          if (u < n_noise) {
            const std::size_t a = unit.slot / config.noise_trials;
            const auto& baseline = results.baselines[a];
            NoiseResult n;
            n.algorithm = baseline.algorithm;
            n.trial = unit.slot % config.noise_trials;
            n.seed = noise_seed(config.seed, n.algorithm, n.trial);  // unit.seed but mode-free
            const auto other = train_and_recommend(data, baseline.algorithm, n.seed, config.k, 1);
            n.oracle = mean_distances(baseline.top, other);
            store.append(n);
          } else {
            const RunKey& key = keys[unit.slot];
            store.append(execute_run(data, results.baselines[algorithm_index(key.algorithm)], key,
                                     run_seed(config.seed, key), config.heuristic_options));
          }
        } catch (const recsys::RecommenderFailure& e) {
          FailedRun f;
          if (u < n_noise) {
            f.algorithm = config.algorithms[unit.slot / config.noise_trials];
            f.noise = true;
            f.trial = unit.slot % config.noise_trials;
          } else {
            const RunKey& key = keys[unit.slot];
            f.algorithm = key.algorithm;
            f.heuristic = key.heuristic;
            f.size = key.size;
            f.trial = key.trial;
          }
          f.reason = e.reason();
          f.stderr_tail = e.stderr_tail();
          store.record_failure(f);
          ++n_failed;
        }
      },
      options);
  for (std::size_t u = n_noise; u < plan.size(); ++u) {
    results.n_executed += report.state[u] == core::UnitState::kExecuted;
    results.n_resumed += report.state[u] == core::UnitState::kFinished;
  }
  results.shard_complete = report.shard_complete();
  results.n_failed = n_failed;

  // Reassembly: re-read the store so executed, resumed and merged runs come back through the
  // same path, in config order.
  std::map<KeyTuple, RunResult> done;
  for (auto& r : store.runs()) done.emplace(tuple_of(r.key), std::move(r));
  for (const auto& key : keys) {
    const auto it = done.find(tuple_of(key));
    if (it != done.end()) results.runs.push_back(it->second);
  }
  std::map<std::pair<std::string, std::size_t>, NoiseResult> noise;
  for (auto& n : store.noise()) noise.emplace(std::make_pair(n.algorithm, n.trial), std::move(n));
  for (const auto& algorithm : config.algorithms) {
    for (std::size_t t = 0; t < config.noise_trials; ++t) {
      const auto it = noise.find({algorithm, t});
      if (it != noise.end()) results.noise.push_back(it->second);
    }
  }
  for (auto& f : store.failures()) {
    if (plan.find(f.unit_key()) < plan.size()) results.failures.push_back(std::move(f));
  }
  results.complete = results.runs.size() == keys.size() && results.noise.size() == n_noise;
  std::error_code ec;
  std::filesystem::remove(work_dir(store), ec);  // empty by now (each training removes its own)
  return results;
}

std::vector<SavedModificationSet> sets_exceeding(const recsys::Ratings& data,
                                                 const CampaignConfig& config,
                                                 const CampaignResults& results, double delta,
                                                 Oracle oracle) {
  const auto o = static_cast<std::size_t>(
      std::find(kAllOracles.begin(), kAllOracles.end(), oracle) - kAllOracles.begin());
  std::vector<SavedModificationSet> out;
  for (const auto& r : results.runs) {
    if (!(r.oracle[o] > delta)) continue;
    const auto it =
        std::find_if(results.baselines.begin(), results.baselines.end(),
                     [&](const AlgorithmBaseline& b) { return b.algorithm == r.key.algorithm; });
    if (it == results.baselines.end()) continue;
    SavedModificationSet set;
    set.data = config.data_description;
    set.key = r.key;
    set.campaign_seed = config.seed;
    set.run_seed = r.seed;
    set.model_seed = it->model_seed;
    set.k = config.k;
    set.oracle = r.oracle;
    set.modifications = run_modifications(data, *it, r.key, r.seed, config.heuristic_options);
    out.push_back(std::move(set));
  }
  return out;
}

}  // namespace assay::stability
