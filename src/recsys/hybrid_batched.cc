// The batched WARP trainer: the reference's float operations, in the same order per value,
// arranged for throughput.
//  - Rows (embeddings, adagrad accumulators, gradients) are stored n_components rounded up to
//    four wide, so every per-component loop is whole SSE2 vectors (the padding lanes hold
//    embedding 0 and accumulator 1, get gradient +-0 and stay so). Adagrad's sqrt and division
//    are correctly rounded in both forms, and no product is fused (-ffp-contract=off).
//  - A positive's negatives are drawn and scored kGroup at a time. Nothing changes between
//    two samples unless one violates the margin, and then the reference stops there: so the
//    scores of a group are those the reference computes, and the first in draw order that
//    violates and is not a positive is the one it updates with. Draws past it are discarded
//    (the Rng stream belongs to this positive alone). The dot products keep their order
//    (component 0 first, from +0); the group's chains run side by side.
#include <algorithm>
#include <cmath>

#include "core/rng.h"
#include "recsys/hybrid_training.h"
#include "recsys/kernels/isa.h"
#include "recsys/rated_set.h"
#include "recsys/sgd_order.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#define ASSAY_HYBRID_BATCHED 1
#endif

namespace assay::recsys {

#ifndef ASSAY_HYBRID_BATCHED

bool Hybrid::batched_available() {
  return false;
}

namespace hybrid_training {
void group_dots(const float* user, const float* negs, std::size_t d, std::size_t w, float* dot) {
  for (std::size_t g = 0; g < kGroup; ++g) {
    float s = 0;
    for (std::size_t c = 0; c < d; ++c) s += user[c] * negs[g * w + c];
    dot[g] = s;
  }
}

Trained train_batched(const Ratings& train, const FitOptions& fit_options,
                      const HybridOptions& options) {
  return train_reference(train, fit_options, options);
}
}  // namespace hybrid_training

#else

bool Hybrid::batched_available() {
  return kernels::has_sse2();  // ASSAY_ISA=scalar selects the reference trainer
}

namespace hybrid_training {
namespace {

// out[0..w) += weight * e[0..w), w a multiple of 4.
inline void add_weighted(float* out, float weight, const float* e, std::size_t w) {
  const __m128 vw = _mm_set1_ps(weight);
  for (std::size_t c = 0; c < w; c += 4) {
    _mm_storeu_ps(out + c, _mm_add_ps(_mm_loadu_ps(out + c), _mm_mul_ps(vw, _mm_loadu_ps(e + c))));
  }
}

// out = a * b, elementwise.
inline void multiply(float* out, const float* a, const float* b, std::size_t w) {
  for (std::size_t c = 0; c < w; c += 4) {
    _mm_storeu_ps(out + c, _mm_mul_ps(_mm_loadu_ps(a + c), _mm_loadu_ps(b + c)));
  }
}

// out = scale * g, elementwise.
inline void scaled(float* out, float scale, const float* g, std::size_t w) {
  const __m128 vs = _mm_set1_ps(scale);
  for (std::size_t c = 0; c < w; c += 4)
    _mm_storeu_ps(out + c, _mm_mul_ps(vs, _mm_loadu_ps(g + c)));
}

// out = a - b, elementwise.
inline void difference(float* out, const float* a, const float* b, std::size_t w) {
  for (std::size_t c = 0; c < w; c += 4) {
    _mm_storeu_ps(out + c, _mm_sub_ps(_mm_loadu_ps(a + c), _mm_loadu_ps(b + c)));
  }
}

// Adagrad on a row with gradient scale * g[c]: param -= rate / sqrt(acc) * gradient, then
// acc += gradient^2 (the reference's adagrad, lane by lane).
inline void adagrad_row(float* param, float* acc, float scale, const float* g, float rate,
                        std::size_t w) {
  const __m128 vs = _mm_set1_ps(scale), vr = _mm_set1_ps(rate);
  for (std::size_t c = 0; c < w; c += 4) {
    const __m128 gradient = _mm_mul_ps(vs, _mm_loadu_ps(g + c));
    const __m128 a = _mm_loadu_ps(acc + c);
    const __m128 step = _mm_mul_ps(_mm_div_ps(vr, _mm_sqrt_ps(a)), gradient);
    _mm_storeu_ps(param + c, _mm_sub_ps(_mm_loadu_ps(param + c), step));
    _mm_storeu_ps(acc + c, _mm_add_ps(a, _mm_mul_ps(gradient, gradient)));
  }
}

inline void adagrad(float& param, float& accumulator, float gradient, float rate) {
  param -= rate / std::sqrt(accumulator) * gradient;
  accumulator += gradient * gradient;
}

}  // namespace

// Four components' products are transposed so that one vector holds a component of every
// row, and the four sums advance side by side in one register.
void group_dots(const float* user, const float* negs, std::size_t d, std::size_t w, float* dot) {
  static_assert(kGroup == 4, "one SSE2 lane per row");
  __m128 sum = _mm_setzero_ps();
  for (std::size_t b = 0; b < w; b += 4) {
    const __m128 u = _mm_loadu_ps(user + b);
    __m128 r0 = _mm_mul_ps(u, _mm_loadu_ps(negs + b)),
           r1 = _mm_mul_ps(u, _mm_loadu_ps(negs + w + b)),
           r2 = _mm_mul_ps(u, _mm_loadu_ps(negs + 2 * w + b)),
           r3 = _mm_mul_ps(u, _mm_loadu_ps(negs + 3 * w + b));
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);  // r0: component b of rows 0..3, r1: b + 1, ...
    if (b < d) sum = _mm_add_ps(sum, r0);
    if (b + 1 < d) sum = _mm_add_ps(sum, r1);
    if (b + 2 < d) sum = _mm_add_ps(sum, r2);
    if (b + 3 < d) sum = _mm_add_ps(sum, r3);
  }
  _mm_storeu_ps(dot, sum);
}

namespace {

// kW: the row width when it is one of the common ones (0: from the options at run time); a
// constant lets the compiler unroll the row loops and keep a representation in registers.
template <std::size_t kW>
Trained train_rows(const Ratings& train, const FitOptions& fit_options, const HybridOptions& o) {
  const std::size_t d = o.n_components, w = kW != 0 ? kW : (d + 3) / 4 * 4;
  const std::size_t n_users = train.n_users(), n_items = train.n_items();
  const ItemFeatures features = item_features(train, o.use_attributes);
  const std::size_t n_item_features = n_items + (o.use_attributes ? train.n_attributes() : 0);

  // The reference's draws fill the rows in order; padding lanes stay 0 (accumulators 1).
  core::Rng init(fit_options.seed, 0);
  std::vector<float> item_emb(n_item_features * w, 0.0f), user_emb(n_users * w, 0.0f);
  for (std::size_t r = 0; r < n_item_features; ++r) {
    for (std::size_t c = 0; c < d; ++c) {
      item_emb[r * w + c] = static_cast<float>((init.uniform() - 0.5) / static_cast<double>(d));
    }
  }
  for (std::size_t r = 0; r < n_users; ++r) {
    for (std::size_t c = 0; c < d; ++c) {
      user_emb[r * w + c] = static_cast<float>((init.uniform() - 0.5) / static_cast<double>(d));
    }
  }
  std::vector<float> item_emb_acc(item_emb.size(), 1.0f), user_emb_acc(user_emb.size(), 1.0f);
  std::vector<float> item_feature_bias(n_item_features, 0.0f), item_bias_acc(n_item_features, 1.0f);

  const auto represent = [&](ItemId i, float* out, float& bias) {
    std::fill(out, out + w, 0.0f);
    bias = 0;
    for (std::size_t p = features.offsets[i]; p < features.offsets[i + 1]; ++p) {
      const float weight = features.weights[p];
      add_weighted(out, weight, item_emb.data() + features.ids[p] * w, w);
      bias += weight * item_feature_bias[features.ids[p]];
    }
  };
  const auto update_item = [&](ItemId i, float bias_gradient, const float* component_gradient) {
    for (std::size_t p = features.offsets[i]; p < features.offsets[i + 1]; ++p) {
      const float weight = features.weights[p];
      const std::size_t f = features.ids[p];
      adagrad_row(item_emb.data() + f * w, item_emb_acc.data() + f * w, weight, component_gradient,
                  o.learning_rate, w);
      adagrad(item_feature_bias[f], item_bias_acc[f], weight * bias_gradient, o.learning_rate);
    }
  };

  const std::vector<float> warp_loss = warp_loss_table(n_items, o.max_sampled);
  std::vector<float> user(w), pos(w), product(w), negs(kGroup * w, 0.0f), g_pos(w), g_neg(w),
      g_user(w);
  SgdOrder orders(train);
  const RatedSet rated_set(train);
  for (std::size_t epoch = 0; epoch < o.n_epochs; ++epoch) {
    const std::uint64_t epoch_seed = core::derive_seed(fit_options.seed, epoch + 1);
    for (const Rating& r : orders.order(epoch_seed)) {
      const UserId u = r.user;
      const ItemId i = r.item;
      std::copy_n(user_emb.begin() + static_cast<std::ptrdiff_t>(u * w), w, user.begin());
      float pos_bias = 0;
      represent(i, pos.data(), pos_bias);
      multiply(product.data(), user.data(), pos.data(), w);
      float pos_dot = 0;
      for (std::size_t c = 0; c < d; ++c) pos_dot += product[c];
      const float pos_score = pos_dot + pos_bias;
      core::Rng rng(epoch_seed, (static_cast<std::uint64_t>(u) << 32) | i);
      for (std::size_t first = 1; first <= o.max_sampled; first += kGroup) {
        const std::size_t m = std::min(kGroup, o.max_sampled + 1 - first);
        ItemId j[kGroup];
        float neg_bias[kGroup];
        for (std::size_t g = 0; g < m; ++g) {
          j[g] = static_cast<ItemId>(rng.below(n_items));
          represent(j[g], negs.data() + g * w, neg_bias[g]);
        }
        alignas(16) float dot[kGroup];
        group_dots(user.data(), negs.data(), d, w, dot);
        std::size_t hit = m;
        for (std::size_t g = 0; g < m && hit == m; ++g) {
          if (dot[g] + neg_bias[g] <= pos_score - 1.0f) continue;
          if (rated_set.contains(u, j[g])) continue;  // a positive
          hit = g;
        }
        if (hit == m) continue;
        const float loss = warp_loss[first + hit];
        const float* neg = negs.data() + hit * w;
        scaled(g_pos.data(), -loss, user.data(), w);
        scaled(g_neg.data(), loss, user.data(), w);
        update_item(i, -loss, g_pos.data());
        update_item(j[hit], loss, g_neg.data());
        difference(g_user.data(), neg, pos.data(), w);
        adagrad_row(user_emb.data() + u * w, user_emb_acc.data() + u * w, loss, g_user.data(),
                    o.learning_rate, w);
        break;
      }
    }
  }

  Trained t;
  t.user_repr.assign(n_users * d, 0.0f);
  for (std::size_t r = 0; r < n_users; ++r) {
    std::copy_n(user_emb.begin() + static_cast<std::ptrdiff_t>(r * w), d,
                t.user_repr.begin() + static_cast<std::ptrdiff_t>(r * d));
  }
  t.item_repr.assign(n_items * d, 0.0f);
  t.item_bias.assign(n_items, 0.0f);
  for (ItemId i = 0; i < n_items; ++i) {
    represent(i, pos.data(), t.item_bias[i]);
    std::copy_n(pos.begin(), d, t.item_repr.begin() + static_cast<std::ptrdiff_t>(i * d));
  }
  return t;
}

}  // namespace

Trained train_batched(const Ratings& train, const FitOptions& fit_options,
                      const HybridOptions& options) {
  switch ((options.n_components + 3) / 4 * 4) {
    case 12:
      return train_rows<12>(train, fit_options, options);
    case 16:
      return train_rows<16>(train, fit_options, options);
    case 32:
      return train_rows<32>(train, fit_options, options);
    default:
      return train_rows<0>(train, fit_options, options);
  }
}

}  // namespace hybrid_training

#endif

}  // namespace assay::recsys
