// The floor FunkSVD is compared with: a plain, single-loop featurewise FunkSVD written the
// straightforward way (Simon Funk's loop with a cached residual per rating, doubles, the same
// hyperparameters, baseline, trail term, clamping and SGD order as recsys::FunkSvd), with a
// plain top-k over all items. Not part of the library: it exists to be timed.
#pragma once

#include <cstddef>
#include <vector>

#include "recsys/ratings.h"

namespace assay::bench {

struct PlainFunkSvd {
  std::size_t n_features = 25, n_epochs = 125;
  double lrate = 0.001, reg = 0.015, init = 0.1, damping = 5;
  std::vector<double> user_bias, item_bias;
  double mean = 0;
  std::vector<std::vector<double>> uf, itf;  // [feature][id]

  void fit(const recsys::Ratings& train, std::uint64_t seed);
  double predict(recsys::UserId u, recsys::ItemId i) const;
  // Top-k unrated items of every user, ties by smaller id.
  std::vector<std::vector<recsys::ItemId>> top_k(const recsys::Ratings& train, std::size_t k) const;
};

}  // namespace assay::bench
