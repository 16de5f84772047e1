#include "recsys/funk_svd.h"

#include <algorithm>

#include "core/check.h"
#include "recsys/sgd_order.h"

namespace assay::recsys {

void FunkSvd::fit(const Ratings& train, const FitOptions& fit_options) {
  const FunkSvdOptions& o = options_;
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  low_ = static_cast<float>(train.scale().low);
  high_ = static_cast<float>(train.scale().high);
  baseline_ = BiasModel::fit(train, o.bias_damping);

  // Ratings in SGD order.
  const std::vector<Rating> ordered = sgd_order(train, fit_options.seed);
  const std::size_t n = ordered.size();
  // One 16-byte record per rating, read as a single stream by the SGD loop.
  struct Entry {
    std::uint32_t user, item;
    float rating, estimate;
  };
  std::vector<Entry> entries(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Rating& r = ordered[k];
    entries[k] = {r.user, r.item, r.value,
                  std::clamp(static_cast<float>(baseline_.predict(r.user, r.item)), low_, high_)};
  }

  user_features_.assign(o.n_features * n_users_, 0.0f);
  item_features_.assign(o.n_features * n_items_, 0.0f);
  const float lr = o.learning_rate, reg = o.regularization;
  const float lo = low_, hi = high_;
  for (std::size_t f = 0; f < o.n_features; ++f) {
    // The two feature columns never overlap each other or the entries; telling the compiler
    // lets it keep loads and stores of different arrays apart.
    float* __restrict uf = user_features_.data() + f * n_users_;
    float* __restrict itf = item_features_.data() + f * n_items_;
    std::fill(uf, uf + n_users_, o.initial_value);
    std::fill(itf, itf + n_items_, o.initial_value);
    const float trail =
        o.initial_value * o.initial_value * static_cast<float>(o.n_features - f - 1);
    const Entry* __restrict pe = entries.data();
    for (std::size_t epoch = 0; epoch < o.n_epochs; ++epoch) {
      for (std::size_t k = 0; k < n; ++k) {
        const Entry e = pe[k];
        const float uv = uf[e.user], iv = itf[e.item];
        const float pred = std::clamp(e.estimate + uv * iv, lo, hi) + trail;
        const float err = e.rating - pred;
        uf[e.user] = uv + lr * (err * iv - reg * uv);
        itf[e.item] = iv + lr * (err * uv - reg * iv);
      }
    }
    for (Entry& e : entries) {
      e.estimate = std::clamp(e.estimate + uf[e.user] * itf[e.item], lo, hi);
    }
  }
  // Users and items without training ratings keep no features: they score the baseline.
  for (UserId u = 0; u < n_users_; ++u) {
    if (train.items_of(u).empty()) {
      for (std::size_t f = 0; f < o.n_features; ++f) user_features_[f * n_users_ + u] = 0;
    }
  }
  for (ItemId i = 0; i < n_items_; ++i) {
    if (train.users_of(i).empty()) {
      for (std::size_t f = 0; f < o.n_features; ++f) item_features_[f * n_items_ + i] = 0;
    }
  }
}

void FunkSvd::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  const std::size_t nf = options_.n_features;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const ItemId i = items[k];
    ASSAY_CHECK(i < n_items_);
    // Same arithmetic as the training estimates: clamp after every feature.
    float s = std::clamp(static_cast<float>(baseline_.predict(user, i)), low_, high_);
    for (std::size_t f = 0; f < nf; ++f) {
      s = std::clamp(s + user_features_[f * n_users_ + user] * item_features_[f * n_items_ + i],
                     low_, high_);
    }
    out[k] = s;
  }
}

}  // namespace assay::recsys
