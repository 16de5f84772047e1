// The hybrid's WARP training (internal to recsys): the pieces both trainers share, and the two
// trainers. The reference visits one sampled negative at a time with scalar loops; the batched
// one scores the negatives of a positive four at a time (each from the same parameters, with
// the same float operations in the same order, so the first that violates the margin is the
// one the reference finds) and runs the per-component loops four lanes wide (SSE2). Both give
// the same bits; tests compare them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "recsys/hybrid.h"
#include "recsys/ratings.h"
#include "recsys/recommender.h"

namespace assay::recsys::hybrid_training {

// An item's features as CSR: identity feature i, then n_items + attribute a, each with weight
// 1 / (1 + the item's attribute count).
struct ItemFeatures {
  std::vector<std::size_t> offsets;
  std::vector<std::uint32_t> ids;
  std::vector<float> weights;
};
ItemFeatures item_features(const Ratings& train, bool use_attributes);

// WARP's rank-weighted loss per sample count s (index 1..max_sampled):
// log(floor((n_items - 1) / s)), at least log 1, clipped at 10.
std::vector<float> warp_loss_table(std::size_t n_items, std::size_t max_sampled);

// The trained parameters, folded into per-item representations (rows of n_components).
struct Trained {
  std::vector<float> user_repr, item_repr, item_bias;
};

// The batched trainer's scoring step: dot[g] = sum over c < d of user[c] * negs[g * w + c],
// added from +0 in component order (the reference's dot), for g < kGroup at once.
constexpr std::size_t kGroup = 4;
void group_dots(const float* user, const float* negs, std::size_t d, std::size_t w, float* dot);

Trained train_reference(const Ratings& train, const FitOptions& fit_options,
                        const HybridOptions& options);
Trained train_batched(const Ratings& train, const FitOptions& fit_options,
                      const HybridOptions& options);

}  // namespace assay::recsys::hybrid_training
