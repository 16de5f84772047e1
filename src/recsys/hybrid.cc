#include "recsys/hybrid.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "core/rng.h"
#include "recsys/hybrid_training.h"
#include "recsys/rated_set.h"
#include "recsys/sgd_order.h"

namespace assay::recsys {
namespace hybrid_training {

ItemFeatures item_features(const Ratings& train, bool use_attributes) {
  ItemFeatures f;
  f.offsets.push_back(0);
  for (ItemId i = 0; i < train.n_items(); ++i) {
    const auto attrs = use_attributes ? train.attributes_of(i) : std::span<const AttributeId>{};
    const float w = 1.0f / static_cast<float>(1 + attrs.size());
    f.ids.push_back(i);
    f.weights.push_back(w);
    for (AttributeId a : attrs) {
      f.ids.push_back(static_cast<std::uint32_t>(train.n_items() + a));
      f.weights.push_back(w);
    }
    f.offsets.push_back(f.ids.size());
  }
  return f;
}

std::vector<float> warp_loss_table(std::size_t n_items, std::size_t max_sampled) {
  constexpr float kMaxLoss = 10.0f;
  std::vector<float> loss(max_sampled + 1, 0.0f);
  for (std::size_t sampled = 1; sampled <= max_sampled; ++sampled) {
    loss[sampled] = std::min(
        kMaxLoss,
        static_cast<float>(std::log(std::max(
            1.0, std::floor(static_cast<double>(n_items - 1) / static_cast<double>(sampled))))));
  }
  return loss;
}

namespace {

// Adagrad step on one parameter: LightFM's update_features (rate from the accumulator
// before this gradient is added).
inline void adagrad(float& param, float& accumulator, float gradient, float learning_rate) {
  param -= learning_rate / std::sqrt(accumulator) * gradient;
  accumulator += gradient * gradient;
}

// Training with the component count as a compile-time constant kD when it is one of the
// common sizes (0: taken from the options at run time). The constant only lets the compiler
// unroll the per-component loops; the operations and their order are the same, so every
// instantiation gives the same bits.
template <std::size_t kD>
Trained train_warp(const Ratings& train, const FitOptions& fit_options, const HybridOptions& o) {
  const std::size_t d = kD != 0 ? kD : o.n_components;
  const std::size_t n_users = train.n_users(), n_items = train.n_items();
  const ItemFeatures features = item_features(train, o.use_attributes);
  const std::size_t n_item_features = n_items + (o.use_attributes ? train.n_attributes() : 0);

  core::Rng init(fit_options.seed, 0);
  std::vector<float> item_emb(n_item_features * d), user_emb(n_users * d);
  for (float& x : item_emb) x = static_cast<float>((init.uniform() - 0.5) / static_cast<double>(d));
  for (float& x : user_emb) x = static_cast<float>((init.uniform() - 0.5) / static_cast<double>(d));
  std::vector<float> item_emb_acc(item_emb.size(), 1.0f), user_emb_acc(user_emb.size(), 1.0f);
  std::vector<float> item_feature_bias(n_item_features, 0.0f), item_bias_acc(n_item_features, 1.0f);

  std::vector<float> pos(d), neg(d), user(d);
  auto represent = [&](ItemId i, float* out, float& bias) {
    std::fill(out, out + d, 0.0f);
    bias = 0;
    for (std::size_t p = features.offsets[i]; p < features.offsets[i + 1]; ++p) {
      const float w = features.weights[p];
      const float* e = item_emb.data() + features.ids[p] * d;
      for (std::size_t c = 0; c < d; ++c) out[c] += w * e[c];
      bias += w * item_feature_bias[features.ids[p]];
    }
  };
  auto dot = [&](const float* a, const float* b) {
    float s = 0;
    for (std::size_t c = 0; c < d; ++c) s += a[c] * b[c];
    return s;
  };
  // Item-side update of one item's features by gradient g * (per-component factor).
  auto update_item = [&](ItemId i, float bias_gradient, const float* component_gradient) {
    for (std::size_t p = features.offsets[i]; p < features.offsets[i + 1]; ++p) {
      const float w = features.weights[p];
      const std::size_t f = features.ids[p];
      float* emb = item_emb.data() + f * d;
      float* acc = item_emb_acc.data() + f * d;
      for (std::size_t c = 0; c < d; ++c) {
        adagrad(emb[c], acc[c], w * component_gradient[c], o.learning_rate);
      }
      adagrad(item_feature_bias[f], item_bias_acc[f], w * bias_gradient, o.learning_rate);
    }
  };

  const std::vector<float> warp_loss = warp_loss_table(n_items, o.max_sampled);
  std::vector<float> g_pos(d), g_neg(d);
  SgdOrder orders(train);
  const RatedSet rated_set(train);
  for (std::size_t epoch = 0; epoch < o.n_epochs; ++epoch) {
    const std::uint64_t epoch_seed = core::derive_seed(fit_options.seed, epoch + 1);
    for (const Rating& r : orders.order(epoch_seed)) {
      const UserId u = r.user;
      const ItemId i = r.item;
      std::copy_n(user_emb.begin() + static_cast<std::ptrdiff_t>(u * d), d, user.begin());
      float pos_bias = 0, neg_bias = 0;
      represent(i, pos.data(), pos_bias);
      const float pos_score = dot(user.data(), pos.data()) + pos_bias;
      core::Rng rng(epoch_seed, (static_cast<std::uint64_t>(u) << 32) | i);
      for (std::size_t sampled = 1; sampled <= o.max_sampled; ++sampled) {
        const auto j = static_cast<ItemId>(rng.below(n_items));
        represent(j, neg.data(), neg_bias);
        const float neg_score = dot(user.data(), neg.data()) + neg_bias;
        if (neg_score <= pos_score - 1.0f) continue;
        if (rated_set.contains(u, j)) continue;  // a positive
        const float loss = warp_loss[sampled];
        // Gradients at the current parameters (LightFM's warp_update).
        for (std::size_t c = 0; c < d; ++c) {
          g_pos[c] = -loss * user[c];
          g_neg[c] = loss * user[c];
        }
        update_item(i, -loss, g_pos.data());
        update_item(j, loss, g_neg.data());
        float* ue = user_emb.data() + u * d;
        float* ua = user_emb_acc.data() + u * d;
        for (std::size_t c = 0; c < d; ++c) {
          adagrad(ue[c], ua[c], loss * (neg[c] - pos[c]), o.learning_rate);
        }
        break;
      }
    }
  }

  Trained t;
  t.user_repr = std::move(user_emb);
  t.item_repr.assign(n_items * d, 0.0f);
  t.item_bias.assign(n_items, 0.0f);
  for (ItemId i = 0; i < n_items; ++i) represent(i, t.item_repr.data() + i * d, t.item_bias[i]);
  return t;
}

}  // namespace

Trained train_reference(const Ratings& train, const FitOptions& fit_options,
                        const HybridOptions& options) {
  switch (options.n_components) {
    case 10:
      return train_warp<10>(train, fit_options, options);
    case 16:
      return train_warp<16>(train, fit_options, options);
    case 32:
      return train_warp<32>(train, fit_options, options);
    default:
      return train_warp<0>(train, fit_options, options);
  }
}

}  // namespace hybrid_training

void Hybrid::fit(const Ratings& train, const FitOptions& fit_options) {
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  const bool batched = options_.kernel != HybridKernel::kReference && batched_available();
  last_kernel_ = batched ? HybridKernel::kBatched : HybridKernel::kReference;
  hybrid_training::Trained t = batched
                                   ? hybrid_training::train_batched(train, fit_options, options_)
                                   : hybrid_training::train_reference(train, fit_options, options_);
  user_repr_ = std::move(t.user_repr);
  item_repr_ = std::move(t.item_repr);
  item_bias_ = std::move(t.item_bias);
}

void Hybrid::score(UserId user, std::span<const ItemId> items, std::span<float> out) const {
  ASSAY_CHECK(user < n_users_ && items.size() == out.size());
  const std::size_t d = options_.n_components;
  const float* u = user_repr_.data() + static_cast<std::size_t>(user) * d;
  for (std::size_t k = 0; k < items.size(); ++k) {
    ASSAY_CHECK(items[k] < n_items_);
    const float* v = item_repr_.data() + static_cast<std::size_t>(items[k]) * d;
    float s = item_bias_[items[k]];
    for (std::size_t c = 0; c < d; ++c) s += u[c] * v[c];
    out[k] = s;
  }
}

}  // namespace assay::recsys
