#include "stability/campaign.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "core/error.h"
#include "core/thread_pool.h"
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
  if (c.n_shards == 0 || c.shard >= c.n_shards) {
    throw core::UsageError("shard " + std::to_string(c.shard) + " of " +
                           std::to_string(c.n_shards) + ": need 0 <= shard < shards");
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

std::size_t parse_count(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-') {
    throw core::UsageError("--shard: expected a whole number for " + what + ", got '" + text + "'");
  }
  return static_cast<std::size_t>(v);
}

}  // namespace

std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  if (text == "auto") {
    static const char* const kPairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                            {"PMI_RANK", "PMI_SIZE"},
                                            {"SLURM_PROCID", "SLURM_NTASKS"}};
    for (const auto& pair : kPairs) {
      const char* rank = std::getenv(pair[0]);
      const char* size = std::getenv(pair[1]);
      if (rank != nullptr && size != nullptr) {
        const std::size_t i = parse_count(rank, pair[0]), n = parse_count(size, pair[1]);
        if (i >= n)
          throw core::UsageError(std::string("--shard auto: ") + pair[0] + " >= " + pair[1]);
        return {i, n};
      }
    }
    throw core::UsageError(
        "--shard auto: no launcher rank in the environment (OMPI_COMM_WORLD_RANK, PMI_RANK or "
        "SLURM_PROCID); give --shard I/N");
  }
  const auto slash = text.find('/');
  if (slash == std::string::npos) {
    throw core::UsageError("--shard: expected I/N (e.g. 0/4) or auto, got '" + text + "'");
  }
  const std::size_t i = parse_count(text.substr(0, slash), "I");
  const std::size_t n = parse_count(text.substr(slash + 1), "N");
  if (n == 0 || i >= n) {
    throw core::UsageError("--shard " + text + ": need 0 <= I < N");
  }
  return {i, n};
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
  store.check_identity(identity_of(data, config));

  CampaignResults results;
  // Merges first: they only add finished runs, never replace one (the key is the primary key).
  {
    std::set<KeyTuple> have;
    for (const auto& r : store.runs()) have.insert(tuple_of(r.key));
    std::set<std::pair<std::string, std::size_t>> have_noise;
    for (const auto& n : store.noise()) have_noise.insert({n.algorithm, n.trial});
    for (const auto& path : config.merge_from) {
      if (!std::filesystem::exists(path)) {
        throw core::IoError(core::SourceLocation(path), "no such campaign store to merge");
      }
      CampaignStore other(path);
      other.check_identity(identity_of(data, config));
      for (const auto& r : other.runs()) {
        if (have.insert(tuple_of(r.key)).second) {
          store.append(r);
          ++results.n_merged;
        }
      }
      for (const auto& n : other.noise()) {
        if (have_noise.insert({n.algorithm, n.trial}).second) store.append(n);
      }
    }
  }
  // Baselines: one training per algorithm, using all threads inside recommend_all.
  for (const auto& algorithm : config.algorithms) {
    results.baselines.push_back(train_baseline(data, algorithm, model_seed(config.seed, algorithm),
                                               config.k, config.n_threads));
  }

  std::map<KeyTuple, RunResult> done;
  for (auto& r : store.runs()) done.emplace(tuple_of(r.key), std::move(r));
  std::set<std::pair<std::string, std::size_t>> noise_done;
  for (const auto& n : store.noise()) noise_done.insert({n.algorithm, n.trial});

  const auto keys = campaign_keys(config);
  std::vector<std::size_t> pending;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (k % config.n_shards == config.shard && done.count(tuple_of(keys[k])) == 0) {
      pending.push_back(k);
    }
  }
  struct NoiseJob {
    std::size_t algorithm;
    std::size_t trial;
  };
  std::vector<NoiseJob> noise_jobs;
  for (std::size_t a = 0; a < config.algorithms.size(); ++a) {
    for (std::size_t t = 0; t < config.noise_trials; ++t) {
      const std::size_t index = a * config.noise_trials + t;
      if (index % config.n_shards == config.shard &&
          noise_done.count({config.algorithms[a], t}) == 0) {
        noise_jobs.push_back({a, t});
      }
    }
  }
  // Trial-major order: an interrupted campaign holds a few trials of every cell rather than
  // all trials of the first algorithms (results do not depend on the order).
  std::stable_sort(pending.begin(), pending.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a].trial < keys[b].trial; });
  std::size_t shard_runs = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) shard_runs += k % config.n_shards == config.shard;
  results.n_resumed = shard_runs - pending.size();

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
  results.shard_complete = true;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (k % config.n_shards == config.shard && done.count(tuple_of(keys[k])) == 0) {
      results.shard_complete = false;
    }
  }
  for (std::size_t a = 0; a < config.algorithms.size(); ++a) {
    for (std::size_t t = 0; t < config.noise_trials; ++t) {
      if ((a * config.noise_trials + t) % config.n_shards == config.shard &&
          noise.count({config.algorithms[a], t}) == 0) {
        results.shard_complete = false;
      }
    }
  }
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
