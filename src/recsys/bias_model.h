// The damped user/item bias baseline of LensKit: b(u,i) = mu + b_i + b_u with
//   b_i = sum_{u in U_i} (r_ui - mu) / (|U_i| + damping)
//   b_u = sum_{i in I_u} (r_ui - mu - b_i) / (|I_u| + damping)
// FunkSVD starts from it, and accuracy checks use it as the fallback for unscorable pairs.
#pragma once

#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

class BiasModel {
 public:
  static constexpr double kDefaultDamping = 5.0;

  BiasModel() = default;
  static BiasModel fit(const Ratings& train, double damping = kDefaultDamping);

  double global_mean() const { return global_mean_; }
  double user_bias(UserId u) const { return user_bias_[u]; }
  double item_bias(ItemId i) const { return item_bias_[i]; }
  double predict(UserId u, ItemId i) const { return global_mean_ + user_bias_[u] + item_bias_[i]; }

 private:
  double global_mean_ = 0;
  std::vector<double> user_bias_, item_bias_;
};

}  // namespace assay::recsys
