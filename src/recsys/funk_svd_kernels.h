// FunkSVD's inner SGD loop over one feature, two ways that give the same bits: over ratings in
// SGD order one at a time, and (AVX-512, chosen at run time) sixteen independent updates at a
// time over the batches of schedule_sgd_batches (sgd_batches.h says why the bits agree). Each
// lane does exactly the scalar update's float operations in the same order; no operation
// is fused (-ffp-contract=off everywhere, and the vector code has no FMA).
#pragma once

#include <cstddef>
#include <cstdint>

namespace assay::recsys {

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

// False where the AVX-512 kernel is not compiled in or the CPU lacks it.
bool funk_batches_avx512_available();

// n_epochs passes over the batches, in batch order.
void funk_epochs_avx512(const FunkBatchLanes& lanes, float* user, float* item, std::size_t n_epochs,
                        const FunkStep& step);

}  // namespace assay::recsys
