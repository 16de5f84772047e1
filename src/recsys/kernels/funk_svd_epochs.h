// FunkSVD's inner SGD loop over one feature, two ways that give the same bits: over ratings in
// SGD order one at a time, and (AVX-512, chosen at run time) sixteen independent updates at a
// time over the batches of schedule_sgd_batches (sgd_batches.h says why the bits agree). Each
// lane does exactly the scalar update's float operations in the same order; no operation
// is fused (-ffp-contract=off everywhere, and the vector code has no FMA).
#pragma once

#include <cstddef>
#include <cstdint>

namespace assay::recsys::kernels {

struct FunkStep {
  float learning_rate, regularization, low, high, trail;
};

// The update of one rating with estimate e (the baseline plus the trained features, clamped):
//   pred = clamp(e + u * i, low, high) + trail,  err = r - pred,
//   u += lr * (err * i - reg * u),  i += lr * (err * u_old - reg * i).

// Structure of arrays, n_batches * 16 lanes; a padding lane names user n_users and item
// n_items (spare slots at the end of `user` and `item`, read and written but never used).
struct FunkBatchLanes {
  const std::uint32_t* user;
  const std::uint32_t* item;
  const float* rating;
  const float* estimate;
  std::size_t n_batches;
};

// Lanes per batch.
inline constexpr std::size_t kFunkBatchLanes = 16;

// n_epochs passes over the batches, in batch order. Call it only where has_avx512() (isa.h).
void funk_epochs_avx512(const FunkBatchLanes& lanes, float* user, float* item, std::size_t n_epochs,
                        const FunkStep& step);

}  // namespace assay::recsys::kernels
