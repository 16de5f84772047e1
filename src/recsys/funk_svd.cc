#include "recsys/funk_svd.h"

#include <algorithm>
#include <limits>

#include "core/check.h"
#include "recsys/kernels/funk_svd_epochs.h"
#include "recsys/kernels/isa.h"
#include "recsys/sgd_order.h"

namespace assay::recsys {

void FunkSvd::fit(const Ratings& train, const FitOptions& fit_options) {
  const FunkSvdOptions& o = options_;
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  // Clamping to [-inf, inf] is the identity on every finite float: the unclamped profile runs
  // the same code.
  constexpr float kInf = std::numeric_limits<float>::infinity();
  low_ = o.clamp ? static_cast<float>(train.scale().low) : -kInf;
  high_ = o.clamp ? static_cast<float>(train.scale().high) : kInf;
  baseline_ = BiasModel::fit(train, o.bias_damping);

  // Ratings in SGD order.
  const std::vector<Rating> ordered = o.order == FunkSvdOrder::kStable
                                          ? sgd_order(train, fit_options.seed)
                                          : shuffled_order(train, fit_options.seed);
  user_features_.assign(o.n_features * n_users_, 0.0f);
  item_features_.assign(o.n_features * n_items_, 0.0f);
  std::vector<float> estimates(ordered.size());
  for (std::size_t k = 0; k < ordered.size(); ++k) {
    const Rating& r = ordered[k];
    estimates[k] = std::clamp(static_cast<float>(baseline_.predict(r.user, r.item)), low_, high_);
  }
  bool batched = o.kernel != FunkSvdKernel::kSerial && kernels::has_avx512();
  SgdBatches batches;
  if (batched) {
    batches = schedule_sgd_batches(ordered, n_users_, n_items_, kernels::kFunkBatchLanes);
    // Lanes mostly empty (a few users or items hold most ratings): the serial loop is faster.
    batched =
        o.kernel == FunkSvdKernel::kBatched || batches.padding * 4 <= batches.positions.size();
  }
  last_kernel_ = batched ? FunkSvdKernel::kBatched : FunkSvdKernel::kSerial;
  if (batched) {
    fit_batched(ordered, estimates, batches);
  } else {
    fit_serial(ordered, estimates);
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

void FunkSvd::fit_serial(const std::vector<Rating>& ordered, const std::vector<float>& estimates) {
  const FunkSvdOptions& o = options_;
  const std::size_t n = ordered.size();
  // One 16-byte record per rating, read as a single stream by the SGD loop.
  struct Entry {
    std::uint32_t user, item;
    float rating, estimate;
  };
  std::vector<Entry> entries(n);
  for (std::size_t k = 0; k < n; ++k) {
    entries[k] = {ordered[k].user, ordered[k].item, ordered[k].value, estimates[k]};
  }
  const float lr = o.learning_rate, reg = o.regularization;
  const float lo = low_, hi = high_;
  for (std::size_t f = 0; f < o.n_features; ++f) {
    // The two feature columns never overlap each other or the entries; telling the compiler
    // lets it keep loads and stores of different arrays apart.
    float* __restrict uf = user_features_.data() + f * n_users_;
    float* __restrict itf = item_features_.data() + f * n_items_;
    std::fill(uf, uf + n_users_, o.initial_value);
    std::fill(itf, itf + n_items_, o.initial_value);
    const float trail = trail_of(f);
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
}

void FunkSvd::fit_batched(const std::vector<Rating>& ordered, const std::vector<float>& estimates,
                          const SgdBatches& batches) {
  const FunkSvdOptions& o = options_;
  const std::size_t n_lanes = batches.positions.size();
  // Structure of arrays in schedule order; padding lanes use the spare slots n_users_ and
  // n_items_ of the feature columns.
  std::vector<std::uint32_t> user(n_lanes), item(n_lanes);
  std::vector<float> rating(n_lanes), estimate(n_lanes);
  for (std::size_t k = 0; k < n_lanes; ++k) {
    const std::uint32_t p = batches.positions[k];
    if (p == SgdBatches::kPadding) {
      user[k] = static_cast<std::uint32_t>(n_users_);
      item[k] = static_cast<std::uint32_t>(n_items_);
    } else {
      user[k] = ordered[p].user;
      item[k] = ordered[p].item;
      rating[k] = ordered[p].value;
      estimate[k] = estimates[p];
    }
  }
  const kernels::FunkBatchLanes lanes{user.data(), item.data(), rating.data(), estimate.data(),
                                      batches.n_batches};
  std::vector<float> uf(n_users_ + 1), itf(n_items_ + 1);
  for (std::size_t f = 0; f < o.n_features; ++f) {
    std::fill(uf.begin(), uf.end(), o.initial_value);
    std::fill(itf.begin(), itf.end(), o.initial_value);
    const kernels::FunkStep step{o.learning_rate, o.regularization, low_, high_, trail_of(f)};
    kernels::funk_epochs_avx512(lanes, uf.data(), itf.data(), o.n_epochs, step);
    for (std::size_t k = 0; k < n_lanes; ++k) {
      estimate[k] = std::clamp(estimate[k] + uf[user[k]] * itf[item[k]], low_, high_);
    }
    std::copy(uf.begin(), uf.begin() + static_cast<std::ptrdiff_t>(n_users_),
              user_features_.begin() + static_cast<std::ptrdiff_t>(f * n_users_));
    std::copy(itf.begin(), itf.begin() + static_cast<std::ptrdiff_t>(n_items_),
              item_features_.begin() + static_cast<std::ptrdiff_t>(f * n_items_));
  }
}

float FunkSvd::trail_of(std::size_t feature) const {
  const FunkSvdOptions& o = options_;
  return o.initial_value * o.initial_value * static_cast<float>(o.n_features - feature - 1);
}

void FunkSvd::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  const std::size_t nf = options_.n_features;
  const float lo = low_, hi = high_;
  for (std::size_t k = 0; k < items.size(); ++k) {
    ASSAY_CHECK(items[k] < n_items_);
    out[k] = std::clamp(static_cast<float>(baseline_.predict(user, items[k])), lo, hi);
  }
  // Same arithmetic as the training estimates: clamp after every feature. Feature by feature
  // over all items (the same operations per item, in the same order) so the loop vectorises.
  float* __restrict s = out.data();
  const ItemId* __restrict ids = items.data();
  for (std::size_t f = 0; f < nf; ++f) {
    const float uv = user_features_[f * n_users_ + user];
    const float* __restrict column = item_features_.data() + f * n_items_;
    for (std::size_t k = 0; k < items.size(); ++k) {
      s[k] = std::min(std::max(s[k] + uv * column[ids[k]], lo), hi);
    }
  }
}

}  // namespace assay::recsys
