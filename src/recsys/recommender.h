// The interface every recommender implements (user-user, item-item, funk-svd, hybrid).
//
// Contract: fit() is deterministic for a given (data, seed, n_threads); in every default
// configuration the order in which SGD visits ratings is a pure function of the (user, item)
// pairs, so adding or removing one unrelated rating does not reshuffle training (FunkSVD's
// order=shuffle, as in the funk-svd-lenskit profile, reshuffles on purpose, as LensKit does).
// score() fills `out[k]` with the predicted preference of `items[k]` for `user` (higher is better).
// The model keeps no reference to the Ratings passed to fit().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

struct FitOptions {
  std::uint64_t seed = 0;
  std::size_t n_threads = 1;
};

class Recommender {
 public:
  virtual ~Recommender() = default;
  virtual std::string name() const = 0;
  virtual void fit(const Ratings& train, const FitOptions& options) = 0;
  virtual void score(UserId user, std::span<const ItemId> items, std::span<float> out) const = 0;
  // The k best of `candidates` (distinct ids) for `user`: higher score first, ties by smaller
  // id, unscorable (NaN) items never. The default scores every candidate; a model may skip
  // candidates that provably cannot enter the list, so the list is always the default's.
  virtual std::vector<ItemId> top_k(UserId user, std::span<const ItemId> candidates,
                                    std::size_t k) const;
};

// The order of every top-k list: higher score first, then smaller item id.
struct ScoredItem {
  float score;
  ItemId item;
};
// A function object, so that sorts and searches given it inline the comparison.
struct RanksBefore {
  bool operator()(const ScoredItem& a, const ScoredItem& b) const {
    return a.score != b.score ? a.score > b.score : a.item < b.item;
  }
};
inline constexpr RanksBefore ranks_before{};

// The k best of scores[j] for candidates[j] (the default top_k's selection).
std::vector<ItemId> select_top_k(std::span<const ItemId> candidates, std::span<const float> scores,
                                 std::size_t k);

// Top-k items `user` has not rated in `train`, best first; ties broken by smaller item id.
std::vector<ItemId> recommend(const Recommender& model, const Ratings& train, UserId user,
                              std::size_t k);

// Top-k lists for every user: result[u] is recommend(model, train, u, k).
using TopKLists = std::vector<std::vector<ItemId>>;
TopKLists recommend_all(const Recommender& model, const Ratings& train, std::size_t k,
                        std::size_t n_threads = 1);

// "user-user", "item-item", "funk-svd", "hybrid" with LensKit/LightFM defaults (see
// ../shared/spec/recsys-stability.md), or any configuration spec of recommender_spec.h
// ("funk-svd:damping=0", "funk-svd-lenskit", ...). Throws core::UsageError for an unknown
// name, key or bad value.
std::unique_ptr<Recommender> make_recommender(std::string_view spec);
const std::vector<std::string>& recommender_names();

}  // namespace assay::recsys
