#include "recsys/bias_model.h"

namespace assay::recsys {

BiasModel BiasModel::fit(const Ratings& train, double damping) {
  BiasModel m;
  double sum = 0;
  for (UserId u = 0; u < train.n_users(); ++u) {
    for (float v : train.values_of_user(u)) sum += v;
  }
  m.global_mean_ = train.n_ratings() > 0 ? sum / static_cast<double>(train.n_ratings()) : 0.0;
  m.item_bias_.assign(train.n_items(), 0.0);
  m.user_bias_.assign(train.n_users(), 0.0);
  for (ItemId i = 0; i < train.n_items(); ++i) {
    const auto values = train.values_of_item(i);
    double s = 0;
    for (float v : values) s += v - m.global_mean_;
    m.item_bias_[i] = s / (static_cast<double>(values.size()) + damping);
  }
  for (UserId u = 0; u < train.n_users(); ++u) {
    const auto items = train.items_of(u);
    const auto values = train.values_of_user(u);
    double s = 0;
    for (std::size_t k = 0; k < items.size(); ++k) {
      s += values[k] - m.global_mean_ - m.item_bias_[items[k]];
    }
    m.user_bias_[u] = s / (static_cast<double>(items.size()) + damping);
  }
  return m;
}

}  // namespace assay::recsys
