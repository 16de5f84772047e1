// FunkSVD's batched SGD kernel: sixteen updates that share no user and no item side by side.
// The parameters are scattered across two small arrays, so each lane's value is loaded and
// stored as a scalar (cheaper here than gather and scatter); the arithmetic, sixteen at once,
// is the scalar update's, operation for operation.
#include "recsys/kernels/funk_svd_epochs.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ASSAY_FUNK_SVD_AVX512 1
#endif

namespace assay::recsys::kernels {

#ifndef ASSAY_FUNK_SVD_AVX512

void funk_epochs_avx512(const FunkBatchLanes&, float*, float*, std::size_t, const FunkStep&) {}

#else

namespace {

constexpr std::size_t kLanes = 16;

__attribute__((target("avx512f"))) inline __m512 load_lanes(const float* base,
                                                            const std::uint32_t* idx) {
  const __m128 a = _mm_setr_ps(base[idx[0]], base[idx[1]], base[idx[2]], base[idx[3]]);
  const __m128 b = _mm_setr_ps(base[idx[4]], base[idx[5]], base[idx[6]], base[idx[7]]);
  const __m128 c = _mm_setr_ps(base[idx[8]], base[idx[9]], base[idx[10]], base[idx[11]]);
  const __m128 d = _mm_setr_ps(base[idx[12]], base[idx[13]], base[idx[14]], base[idx[15]]);
  __m512 v = _mm512_zextps128_ps512(a);
  v = _mm512_insertf32x4(v, b, 1);
  v = _mm512_insertf32x4(v, c, 2);
  return _mm512_insertf32x4(v, d, 3);
}

// max_ps/min_ps through their masked forms: GCC 12's unmasked ones pass an undefined vector
// that -Wmaybe-uninitialized flags. All lanes selected, this is the same instruction.
__attribute__((target("avx512f"))) inline __m512 max_ps(__m512 a, __m512 b) {
  return _mm512_mask_max_ps(a, 0xffff, a, b);
}
__attribute__((target("avx512f"))) inline __m512 min_ps(__m512 a, __m512 b) {
  return _mm512_mask_min_ps(a, 0xffff, a, b);
}

}  // namespace

__attribute__((target("avx512f"))) void funk_epochs_avx512(const FunkBatchLanes& lanes, float* user,
                                                           float* item, std::size_t n_epochs,
                                                           const FunkStep& step) {
  const __m512 lr = _mm512_set1_ps(step.learning_rate), reg = _mm512_set1_ps(step.regularization);
  const __m512 lo = _mm512_set1_ps(step.low), hi = _mm512_set1_ps(step.high);
  const __m512 trail = _mm512_set1_ps(step.trail);
  alignas(64) float new_user[kLanes], new_item[kLanes];
  for (std::size_t epoch = 0; epoch < n_epochs; ++epoch) {
    for (std::size_t b = 0; b < lanes.n_batches; ++b) {
      const std::uint32_t* bu = lanes.user + b * kLanes;
      const std::uint32_t* bi = lanes.item + b * kLanes;
      const __m512 r = _mm512_loadu_ps(lanes.rating + b * kLanes);
      const __m512 e = _mm512_loadu_ps(lanes.estimate + b * kLanes);
      const __m512 u = load_lanes(user, bu), i = load_lanes(item, bi);
      // std::clamp(x, lo, hi) is (x < lo) ? lo : (hi < x) ? hi : x. max_ps(a, b) is
      // (a > b) ? a : b and min_ps(a, b) is (a < b) ? a : b, each b when either is NaN, so
      // min_ps(hi, max_ps(lo, x)) is the same selection for every x, NaN and signed zeros
      // included.
      const __m512 pred =
          _mm512_add_ps(min_ps(hi, max_ps(lo, _mm512_add_ps(e, _mm512_mul_ps(u, i)))), trail);
      const __m512 err = _mm512_sub_ps(r, pred);
      const __m512 nu = _mm512_add_ps(
          u, _mm512_mul_ps(lr, _mm512_sub_ps(_mm512_mul_ps(err, i), _mm512_mul_ps(reg, u))));
      const __m512 ni = _mm512_add_ps(
          i, _mm512_mul_ps(lr, _mm512_sub_ps(_mm512_mul_ps(err, u), _mm512_mul_ps(reg, i))));
      _mm512_store_ps(new_user, nu);
      _mm512_store_ps(new_item, ni);
      for (std::size_t q = 0; q < kLanes; ++q) {
        user[bu[q]] = new_user[q];
        item[bi[q]] = new_item[q];
      }
    }
  }
}

#endif

}  // namespace assay::recsys::kernels
