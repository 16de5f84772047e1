#include "stability/campaign.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <tuple>

#include "core/error.h"
#include "core/thread_pool.h"

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
  // make_recommender throws UsageError for unknown names; check before any training.
  for (const auto& a : c.algorithms) (void)recsys::make_recommender(a);
}

std::map<std::string, std::string> identity_of(const recsys::Ratings& data,
                                               const CampaignConfig& c) {
  std::string portfolio;
  for (const auto h : c.heuristic_options.portfolio) {
    if (!portfolio.empty()) portfolio += ",";
    portfolio += to_string(h);
  }
  return {{"data", c.data_description},
          {"data_shape", std::to_string(data.n_users()) + " users, " +
                             std::to_string(data.n_items()) + " items, " +
                             std::to_string(data.n_ratings()) + " ratings"},
          {"seed", std::to_string(c.seed)},
          {"k", std::to_string(c.k)},
          {"portfolio", portfolio},
          {"format", "assay-rec-campaign/1"}};
}

}  // namespace

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
  store.check_identity(identity_of(data, config));

  CampaignResults results;
  // Baselines: one training per algorithm, using all threads inside recommend_all.
  for (const auto& algorithm : config.algorithms) {
    results.baselines.push_back(train_baseline(data, algorithm,
                                               model_seed(config.seed, algorithm), config.k,
                                               config.n_threads));
  }

  std::map<KeyTuple, RunResult> done;
  for (auto& r : store.runs()) done.emplace(tuple_of(r.key), std::move(r));
  std::set<std::pair<std::string, std::size_t>> noise_done;
  for (const auto& n : store.noise()) noise_done.insert({n.algorithm, n.trial});

  const auto keys = campaign_keys(config);
  std::vector<std::size_t> pending;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (done.count(tuple_of(keys[k])) == 0) pending.push_back(k);
  }
  struct NoiseJob {
    std::size_t algorithm;
    std::size_t trial;
  };
  std::vector<NoiseJob> noise_jobs;
  for (std::size_t a = 0; a < config.algorithms.size(); ++a) {
    for (std::size_t t = 0; t < config.noise_trials; ++t) {
      if (noise_done.count({config.algorithms[a], t}) == 0) noise_jobs.push_back({a, t});
    }
  }
  // Trial-major order: an interrupted campaign holds a few trials of every cell rather than
  // all trials of the first algorithms (results do not depend on the order).
  std::stable_sort(pending.begin(), pending.end(), [&](std::size_t a, std::size_t b) {
    return keys[a].trial < keys[b].trial;
  });
  results.n_resumed = keys.size() - pending.size();

  const std::size_t n_jobs = noise_jobs.size() + pending.size();
  core::Progress progress("stability runs", n_jobs, config.progress);
  std::atomic<std::size_t> executed{0};
  const std::size_t limit = config.stop_after == 0 ? n_jobs : config.stop_after;
  core::ThreadPool pool(config.n_threads);
  // Noise jobs first (they are few); a job index past the limit is skipped, which is how a
  // test stops a campaign part way.
  pool.parallel_for(0, n_jobs, 1, [&](std::size_t j) {
    if (executed.fetch_add(1) >= limit) return;
    if (j < noise_jobs.size()) {
      const auto& job = noise_jobs[j];
      const auto& baseline = results.baselines[job.algorithm];
      NoiseResult n;
      n.algorithm = baseline.algorithm;
      n.trial = job.trial;
      n.seed = noise_seed(config.seed, baseline.algorithm, job.trial);
      const auto other = train_and_recommend(data, baseline.algorithm, n.seed, config.k, 1);
      n.oracle = mean_distances(baseline.top, other);
      store.append(n);
    } else {
      const RunKey& key = keys[pending[j - noise_jobs.size()]];
      const auto a = static_cast<std::size_t>(
          std::find(config.algorithms.begin(), config.algorithms.end(), key.algorithm) -
          config.algorithms.begin());
      store.append(execute_run(data, results.baselines[a], key, run_seed(config.seed, key),
                               config.heuristic_options));
    }
    progress.add();
  });
  progress.finish();
  // Jobs run in index order of claim; the first `limit` claimed are the noise jobs, then runs.
  results.n_executed = std::min(limit, n_jobs) - std::min(limit, noise_jobs.size());

  // Re-read the store so executed and resumed runs come back through the same path.
  done.clear();
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
  results.complete = results.runs.size() == keys.size() &&
                     results.noise.size() == config.algorithms.size() * config.noise_trials;
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
    const auto it = std::find_if(results.baselines.begin(), results.baselines.end(),
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
