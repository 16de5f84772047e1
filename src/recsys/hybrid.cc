#include "recsys/hybrid.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "core/rng.h"
#include "recsys/sgd_order.h"

namespace assay::recsys {
namespace {

constexpr float kMaxLoss = 10.0f;

// An item's features as CSR: identity feature i, then n_items + attribute a.
struct ItemFeatures {
  std::vector<std::size_t> offsets;
  std::vector<std::uint32_t> ids;
  std::vector<float> weights;
};

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

// Adagrad step on one parameter: LightFM's update_features (rate from the accumulator
// before this gradient is added).
inline void adagrad(float& param, float& accumulator, float gradient, float learning_rate) {
  param -= learning_rate / std::sqrt(accumulator) * gradient;
  accumulator += gradient * gradient;
}

}  // namespace

void Hybrid::fit(const Ratings& train, const FitOptions& fit_options) {
  const HybridOptions& o = options_;
  const std::size_t d = o.n_components;
  n_users_ = train.n_users();
  n_items_ = train.n_items();
  const ItemFeatures features = item_features(train, o.use_attributes);
  const std::size_t n_item_features =
      n_items_ + (o.use_attributes ? train.n_attributes() : 0);

  core::Rng init(fit_options.seed, 0);
  std::vector<float> item_emb(n_item_features * d), user_emb(n_users_ * d);
  for (float& x : item_emb) x = static_cast<float>((init.uniform() - 0.5) / static_cast<double>(d));
  for (float& x : user_emb) x = static_cast<float>((init.uniform() - 0.5) / static_cast<double>(d));
  std::vector<float> item_emb_acc(item_emb.size(), 1.0f), user_emb_acc(user_emb.size(), 1.0f);
  std::vector<float> item_feature_bias(n_item_features, 0.0f), item_bias_acc(n_item_features, 1.0f);

  std::vector<float> pos(d), neg(d), user(d);
  auto represent = [&](ItemId i, std::vector<float>& out, float& bias) {
    std::fill(out.begin(), out.end(), 0.0f);
    bias = 0;
    for (std::size_t p = features.offsets[i]; p < features.offsets[i + 1]; ++p) {
      const float w = features.weights[p];
      const float* e = item_emb.data() + features.ids[p] * d;
      for (std::size_t c = 0; c < d; ++c) out[c] += w * e[c];
      bias += w * item_feature_bias[features.ids[p]];
    }
  };
  auto dot = [&](const std::vector<float>& a, const std::vector<float>& b) {
    float s = 0;
    for (std::size_t c = 0; c < d; ++c) s += a[c] * b[c];
    return s;
  };
  // Item-side update of one item's features by gradient g * (per-component factor).
  auto update_item = [&](ItemId i, float bias_gradient, const float* component_gradient) {
    for (std::size_t p = features.offsets[i]; p < features.offsets[i + 1]; ++p) {
      const float w = features.weights[p];
      const std::size_t f = features.ids[p];
      for (std::size_t c = 0; c < d; ++c) {
        adagrad(item_emb[f * d + c], item_emb_acc[f * d + c], w * component_gradient[c],
                o.learning_rate);
      }
      adagrad(item_feature_bias[f], item_bias_acc[f], w * bias_gradient, o.learning_rate);
    }
  };

  std::vector<float> g_pos(d), g_neg(d);
  for (std::size_t epoch = 0; epoch < o.n_epochs; ++epoch) {
    const std::uint64_t epoch_seed = core::derive_seed(fit_options.seed, epoch + 1);
    for (const Rating& r : sgd_order(train, epoch_seed)) {
      const UserId u = r.user;
      const ItemId i = r.item;
      std::copy_n(user_emb.begin() + static_cast<std::ptrdiff_t>(u * d), d, user.begin());
      float pos_bias = 0, neg_bias = 0;
      represent(i, pos, pos_bias);
      const float pos_score = dot(user, pos) + pos_bias;
      core::Rng rng(epoch_seed, (static_cast<std::uint64_t>(u) << 32) | i);
      const auto rated = train.items_of(u);
      for (std::size_t sampled = 1; sampled <= o.max_sampled; ++sampled) {
        const auto j = static_cast<ItemId>(rng.below(n_items_));
        represent(j, neg, neg_bias);
        const float neg_score = dot(user, neg) + neg_bias;
        if (neg_score <= pos_score - 1.0f) continue;
        if (std::binary_search(rated.begin(), rated.end(), j)) continue;  // a positive
        const float loss = std::min(
            kMaxLoss,
            static_cast<float>(std::log(std::max(
                1.0, std::floor(static_cast<double>(n_items_ - 1) / static_cast<double>(sampled))))));
        // Gradients at the current parameters (LightFM's warp_update).
        for (std::size_t c = 0; c < d; ++c) {
          g_pos[c] = -loss * user[c];
          g_neg[c] = loss * user[c];
        }
        update_item(i, -loss, g_pos.data());
        update_item(j, loss, g_neg.data());
        for (std::size_t c = 0; c < d; ++c) {
          adagrad(user_emb[u * d + c], user_emb_acc[u * d + c], loss * (neg[c] - pos[c]),
                  o.learning_rate);
        }
        break;
      }
    }
  }

  user_repr_ = std::move(user_emb);
  item_repr_.assign(n_items_ * d, 0.0f);
  item_bias_.assign(n_items_, 0.0f);
  for (ItemId i = 0; i < n_items_; ++i) {
    float b = 0;
    represent(i, pos, b);
    std::copy(pos.begin(), pos.end(), item_repr_.begin() + static_cast<std::ptrdiff_t>(i * d));
    item_bias_[i] = b;
  }
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
