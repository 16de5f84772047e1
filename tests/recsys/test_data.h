// Shared fixtures of the recsys tests: a small synthetic dataset and a holdout split.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "core/rng.h"
#include "recsys/ratings.h"
#include "recsys/recommender.h"
#include "recsys/synthetic_ratings.h"

namespace assay::recsys::fixtures {

inline Ratings small_synthetic(std::uint64_t seed = 1) {
  SyntheticOptions o;
  o.n_users = 120;
  o.n_items = 200;
  o.n_ratings = 5000;
  o.seed = seed;
  return generate_synthetic_ratings(o);
}

struct Split {
  Ratings train;
  std::vector<Rating> test;
};

// Holds out about `fraction` of the ratings (seeded), keeping ids and labels.
inline Split holdout(const Ratings& all, double fraction, std::uint64_t seed) {
  core::Rng rng(seed, 99);
  std::vector<Modification> removals;
  Split s;
  for (const Rating& r : all.triplets()) {
    if (rng.bernoulli(fraction) && all.items_of(r.user).size() > 5) {
      removals.push_back({Modification::Kind::kRemove, r.user, r.item, 0});
      s.test.push_back(r);
    }
  }
  s.train = all.apply(removals);
  return s;
}

struct Accuracy {
  double rmse = 0, mae = 0;
  double coverage = 0;  // fraction of test pairs the model could score
};

// RMSE/MAE of `model` on `test`; unscorable pairs (NaN) take `fallback(u, i)`.
template <class Fallback>
Accuracy accuracy(const Recommender& model, const std::vector<Rating>& test, Fallback fallback) {
  double se = 0, ae = 0;
  std::size_t scored = 0;
  for (const Rating& r : test) {
    float p = 0;
    const ItemId item = r.item;
    model.score(r.user, std::span<const ItemId>(&item, 1), std::span<float>(&p, 1));
    if (std::isnan(p)) {
      p = static_cast<float>(fallback(r.user, r.item));
    } else {
      ++scored;
    }
    const double e = static_cast<double>(p) - r.value;
    se += e * e;
    ae += std::abs(e);
  }
  const auto n = static_cast<double>(test.size());
  return {std::sqrt(se / n), ae / n, static_cast<double>(scored) / n};
}

}  // namespace assay::recsys::fixtures
