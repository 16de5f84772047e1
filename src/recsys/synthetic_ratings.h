// A generator of MovieLens-shaped rating data with planted structure: the embedded default
// dataset and the test fixture. Ratings come from a latent-factor model
//   r(u,i) = round(clamp(mu + b_u + b_i + p_u . q_i + noise, 1, 5))
// where item factors q_i lean towards the centroids of the item's genres (so genres carry
// signal), item popularity follows a power law over a random permutation of the item ids
// (so popularity is not correlated with id order), and user activity is log-normal with at
// least min(20, ratings/users) ratings per user (as in MovieLens 100K).
// Optionally (top_only_items > 0) it plants what real data has at the end of its long tail:
// obscure items rated by one to three users, every rating the scale's top value (MovieLens 100K
// has 10 items rated only 5 stars, MovieLens latest-small 296). They are the least popular
// items of the power law, their ratings taken out of their raters' shares, so the number of
// ratings stays `n_ratings`; with 0 the data is exactly what it was without the option.
// Same options -> same Ratings, byte for byte.
#pragma once

#include <cstdint>

#include "recsys/ratings.h"

namespace assay::recsys {

struct SyntheticOptions {
  std::size_t n_users = 943;
  std::size_t n_items = 1682;
  std::size_t n_ratings = 100000;
  std::uint64_t seed = 0;
  std::size_t n_factors = 8;
  // Item weight ∝ (rank + kOffset)^-exponent over a random popularity rank.
  double popularity_exponent = 1.0;
  double noise_sd = 0.6;
  std::size_t top_only_items = 0;
};

// Throws core::UsageError when the counts are impossible (no users or items, or more ratings
// than half of all (user, item) pairs).
Ratings generate_synthetic_ratings(const SyntheticOptions& options);

}  // namespace assay::recsys
