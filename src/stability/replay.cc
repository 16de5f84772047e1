#include "stability/replay.h"

#include <algorithm>

#include "stability/algorithm_baseline.h"

namespace assay::stability {

ReplayResult replay_modification_set(const recsys::Ratings& data,
                                     const std::vector<recsys::Modification>& modifications,
                                     const std::string& algorithm, std::uint64_t model_seed,
                                     std::size_t k, std::size_t n_threads) {
  ReplayResult r;
  const auto modified = data.apply(modifications);
  r.before = train_and_recommend(data, algorithm, model_seed, k, n_threads);
  r.after = train_and_recommend(modified, algorithm, model_seed, k, n_threads);
  r.oracle = mean_distances(r.before, r.after);
  const auto has = [](const std::vector<recsys::ItemId>& list, recsys::ItemId i) {
    return std::find(list.begin(), list.end(), i) != list.end();
  };
  for (recsys::UserId u = 0; u < r.before.size(); ++u) {
    UserChange c;
    c.user = u;
    for (const auto i : r.before[u]) {
      if (!has(r.after[u], i)) c.lost.push_back(i);
    }
    for (const auto i : r.after[u]) {
      if (!has(r.before[u], i)) c.gained.push_back(i);
    }
    c.lost_top1 = !r.before[u].empty() && !has(r.after[u], r.before[u][0]);
    if (!c.lost.empty() || !c.gained.empty()) r.changes.push_back(std::move(c));
  }
  return r;
}

}  // namespace assay::stability
