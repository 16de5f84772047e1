#include "recsys/recommender.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "recsys/funk_svd.h"
#include "recsys/hybrid.h"
#include "recsys/item_item.h"
#include "recsys/recommender_spec.h"
#include "recsys/user_user.h"

namespace assay::recsys {
std::vector<ItemId> recommend(const Recommender& model, const Ratings& train, UserId user,
                              std::size_t k) {
  ASSAY_CHECK(user < train.n_users());
  // Candidates: every item the user has not rated (rated items are sorted, so one merge).
  const auto rated = train.items_of(user);
  std::vector<ItemId> candidates;
  candidates.reserve(train.n_items() - rated.size());
  std::size_t r = 0;
  for (ItemId i = 0; i < train.n_items(); ++i) {
    if (r < rated.size() && rated[r] == i) {
      ++r;
      continue;
    }
    candidates.push_back(i);
  }
  return model.top_k(user, candidates, k);
}

std::vector<ItemId> Recommender::top_k(UserId user, std::span<const ItemId> candidates,
                                       std::size_t k) const {
  std::vector<float> scores(candidates.size());
  score(user, candidates, scores);
  return select_top_k(candidates, scores, k);
}

std::vector<ItemId> select_top_k(std::span<const ItemId> candidates, std::span<const float> scores,
                                 std::size_t k) {
  ASSAY_CHECK(candidates.size() == scores.size());
  // Unscorable items (NaN) are never recommended, as in LensKit's top-N recommender.
  std::vector<ScoredItem> scored;
  scored.reserve(candidates.size());
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    if (!std::isnan(scores[j])) scored.push_back({scores[j], candidates[j]});
  }
  const std::size_t n = std::min(k, scored.size());
  std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(n), scored.end(),
                    ranks_before);
  std::vector<ItemId> top(n);
  for (std::size_t j = 0; j < n; ++j) top[j] = scored[j].item;
  return top;
}

TopKLists recommend_all(const Recommender& model, const Ratings& train, std::size_t k,
                        std::size_t n_threads) {
  TopKLists lists(train.n_users());
  core::ThreadPool pool(std::max<std::size_t>(1, n_threads));
  constexpr std::size_t kGrain = 8;
  // Each user's list depends only on the model and that user's row: threads change nothing.
  pool.parallel_for(0, train.n_users(), kGrain, [&](std::size_t u) {
    lists[u] = recommend(model, train, static_cast<UserId>(u), k);
  });
  return lists;
}

const std::vector<std::string>& recommender_names() {
  static const std::vector<std::string> kNames = {"user-user", "item-item", "funk-svd", "hybrid"};
  return kNames;
}

std::unique_ptr<Recommender> make_recommender(std::string_view spec) {
  return make_recommender(parse_recommender_spec(spec));
}

}  // namespace assay::recsys
