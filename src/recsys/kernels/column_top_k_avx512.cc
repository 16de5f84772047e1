// ColumnTopK's AVX-512 passes: sixteen columns at a time, chosen at run time (the build
// targets baseline x86-64, so this file's functions carry their own target attribute). The
// answer is the SSE2 passes' bit for bit: the same selection, and the sums over the same
// similarities in the same row order (a masked add leaves a lane untouched where SSE2 adds
// +0, and these sums, started at +0, are never -0, so the two agree).
#include <algorithm>
#include <bit>
#include <limits>

#include "recsys/kernels/column_top_k.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ASSAY_COLUMN_TOP_K_AVX512 1
#endif

namespace assay::recsys::kernels {

#ifndef ASSAY_COLUMN_TOP_K_AVX512

void ColumnTopK::run_avx512(const float* const* rows, const float* values, std::size_t n,
                            std::size_t n_cols, std::size_t readable, const ColumnLevels& levels,
                            float* num_out, float* den_out, std::uint8_t* ok_out) {
  run_sse2(rows, values, n, n_cols, readable, levels, num_out, den_out, ok_out);
}

#else

namespace {
constexpr int kLanes = 16;
constexpr int kNumLevels = 6;
constexpr std::ptrdiff_t kSpacing = 2;      // grid rows between two levels (positions x 1.41)
constexpr std::size_t kPrefetchAhead = 64;  // columns
// bucket_threshold for b <= 32 values, one or two registers: each value's count of greater
// and of equal values at once; the threshold is the value with greater < r <= greater + equal.
// False (nothing written) only if no value qualifies, which a bucket that holds the r-th
// largest cannot do; the caller then takes the scalar path rather than read past v.
__attribute__((target("avx512f,popcnt"))) bool rank_in_registers(const float* v, std::size_t b,
                                                                 std::size_t r, float& t,
                                                                 std::size_t& greater,
                                                                 std::size_t& equal) {
  const __m512i one = _mm512_set1_epi32(1);
  const std::size_t b1 = b > kLanes ? b - kLanes : 0;
  const __mmask16 m0 = static_cast<__mmask16>(b >= kLanes ? 0xffffu : (1u << b) - 1);
  const __mmask16 m1 = static_cast<__mmask16>(b1 >= kLanes ? 0xffffu : (1u << b1) - 1);
  const __m512 x0 = _mm512_maskz_loadu_ps(m0, v), x1 = _mm512_maskz_loadu_ps(m1, v + kLanes);
  __m512i gt0 = _mm512_setzero_si512(), eq0 = gt0, gt1 = gt0, eq1 = gt0;
  for (std::size_t q = 0; q < b; ++q) {
    const __m512 y = _mm512_set1_ps(v[q]);
    gt0 = _mm512_mask_add_epi32(gt0, _mm512_cmp_ps_mask(x0, y, _CMP_LT_OQ), gt0, one);
    eq0 = _mm512_mask_add_epi32(eq0, _mm512_cmp_ps_mask(x0, y, _CMP_EQ_OQ), eq0, one);
    if (b1 > 0) {
      gt1 = _mm512_mask_add_epi32(gt1, _mm512_cmp_ps_mask(x1, y, _CMP_LT_OQ), gt1, one);
      eq1 = _mm512_mask_add_epi32(eq1, _mm512_cmp_ps_mask(x1, y, _CMP_EQ_OQ), eq1, one);
    }
  }
  const __m512i vr = _mm512_set1_epi32(static_cast<int>(r));
  alignas(64) std::int32_t g[2 * kLanes], e[2 * kLanes];
  _mm512_store_si512(g, gt0);
  _mm512_store_si512(g + kLanes, gt1);
  _mm512_store_si512(e, eq0);
  _mm512_store_si512(e + kLanes, eq1);
  const __mmask16 h0 = _mm512_mask_cmpge_epi32_mask(_mm512_mask_cmplt_epi32_mask(m0, gt0, vr),
                                                    _mm512_add_epi32(gt0, eq0), vr);
  const __mmask16 h1 = _mm512_mask_cmpge_epi32_mask(_mm512_mask_cmplt_epi32_mask(m1, gt1, vr),
                                                    _mm512_add_epi32(gt1, eq1), vr);
  const std::uint32_t hits = static_cast<std::uint32_t>(h0) | (std::uint32_t{h1} << kLanes);
  if (hits == 0) return false;
  const int q = std::countr_zero(hits);
  t = v[q];
  greater = static_cast<std::size_t>(g[q]);
  equal = static_cast<std::size_t>(e[q]);
  return true;
}

}  // namespace

__attribute__((target("avx512f,popcnt"))) void ColumnTopK::run_avx512(
    const float* const* rows, const float* values, std::size_t n, std::size_t n_cols,
    std::size_t readable, const ColumnLevels& levels, float* num_out, float* den_out,
    std::uint8_t* ok_out) {
  const float inf = std::numeric_limits<float>::infinity();
  const int k = static_cast<int>(k_);
  const __m512 zero = _mm512_setzero_ps(), vinf = _mm512_set1_ps(inf);
  const __m512i one = _mm512_set1_epi32(1), vk = _mm512_set1_epi32(k);
  const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  stream_values_.resize(kLanes * (n + 1));  // + 1: each row stores a whole vector
  stream_lanes_.resize(kLanes * (n + 1));
  bucket_.resize(kLanes * (n + 1));
  const bool use_levels = n > k_ && levels.n_grid > 0;
  const std::ptrdiff_t last_row = static_cast<std::ptrdiff_t>(levels.n_grid) - 1;
  std::ptrdiff_t centre = static_cast<std::ptrdiff_t>(levels.start);
  for (std::size_t c0 = 0; c0 < n_cols; c0 += kLanes) {
    const std::size_t width = std::min<std::size_t>(kLanes, n_cols - c0);
    const __mmask16 live = static_cast<__mmask16>(width == kLanes ? 0xffffu : (1u << width) - 1);
#define ASSAY_LOAD(p) _mm512_maskz_loadu_ps(live, (p) + c0)
    if (c0 + kPrefetchAhead < readable) {
      for (std::size_t j = 0; j < n; ++j) {
        _mm_prefetch(reinterpret_cast<const char*>(rows[j] + c0 + kPrefetchAhead), _MM_HINT_T0);
      }
    }
    // Pass 1: the positive count m and the counts above the levels, per column.
    __m512i cm = _mm512_setzero_si512();
    __m512 lo = vinf, hi = vinf;  // the bucket (lo, hi]; empty for lanes that select nothing
    __m512i c_hi = _mm512_setzero_si512();
    __mmask16 select = 0;
    if (!use_levels) {
      for (std::size_t j = 0; j < n; ++j) {
        const __m512 x = ASSAY_LOAD(rows[j]);
        cm = _mm512_mask_add_epi32(cm, _mm512_cmp_ps_mask(x, zero, _CMP_GT_OQ), cm, one);
      }
      select = _mm512_cmpgt_epi32_mask(cm, vk);
      lo = _mm512_mask_mov_ps(lo, select, zero);
    } else {
      __m512 lv[kNumLevels];
      for (int q = 0; q < kNumLevels; ++q) {
        const std::ptrdiff_t h = centre + kSpacing * q - ((kNumLevels - 1) * kSpacing + 1) / 2;
        lv[q] = ASSAY_LOAD(levels.grid +
                           static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(h, 0, last_row)) *
                               levels.stride);
      }
      __m512i cnt[kNumLevels];
      for (auto& c : cnt) c = _mm512_setzero_si512();
      for (std::size_t j = 0; j < n; ++j) {
        const __m512 x = ASSAY_LOAD(rows[j]);
        cm = _mm512_mask_add_epi32(cm, _mm512_cmp_ps_mask(x, zero, _CMP_GT_OQ), cm, one);
        for (int q = 0; q < kNumLevels; ++q) {
          cnt[q] =
              _mm512_mask_add_epi32(cnt[q], _mm512_cmp_ps_mask(x, lv[q], _CMP_GT_OQ), cnt[q], one);
        }
      }
      select = _mm512_cmpgt_epi32_mask(cm, vk);
      // Levels decrease with q, so the counts above them grow: the levels with fewer than k
      // above are a prefix. hi: the last of them (its count c_hi); lo: the first level with
      // at least k above, 0 when there is none.
      __m512i h = _mm512_setzero_si512();
      lo = zero;
      for (int q = 0; q < kNumLevels; ++q) {
        const __mmask16 below = _mm512_cmplt_epi32_mask(cnt[q], vk);
        hi = _mm512_mask_mov_ps(hi, below, lv[q]);
        c_hi = _mm512_mask_mov_epi32(c_hi, below, cnt[q]);
        h = _mm512_mask_add_epi32(h, below, h, one);
      }
      for (int q = kNumLevels - 1; q >= 0; --q) {
        lo = _mm512_mask_mov_ps(lo, _mm512_cmpge_epi32_mask(cnt[q], vk), lv[q]);
      }
      lo = _mm512_mask_mov_ps(vinf, select, lo);
      hi = _mm512_mask_mov_ps(vinf, select, hi);
      // Follow this user's crossing point: it moves slowly from column to column.
      const int n_drift = std::popcount(static_cast<unsigned>(select));
      if (n_drift > 0) {
        // (A plain sum: GCC 12 warns inside _mm512_mask_reduce_add_epi32.)
        alignas(64) std::int32_t h_lane[kLanes];
        _mm512_store_si512(h_lane, h);
        std::ptrdiff_t drift = -(kNumLevels / 2) * n_drift;
        for (unsigned bits = select; bits != 0; bits &= bits - 1) {
          drift += h_lane[std::countr_zero(bits)];
        }
        centre = std::clamp<std::ptrdiff_t>(
            centre + std::clamp<std::ptrdiff_t>(drift * kSpacing / n_drift, -2, 2), 0, last_row);
      }
    }
    const __mmask16 none = _mm512_cmpeq_epi32_mask(cm, _mm512_setzero_si512());
    // Thresholds: none select nothing (inf), lanes with at most k positives take all (0).
    __m512 threshold = _mm512_mask_mov_ps(zero, none, vinf);
    __mmask16 fallback = 0;
    if (select != 0) {
      // Pass 2: every row's bucket members, compressed into one stream with their lanes.
      float* sv = stream_values_.data();
      std::uint32_t* sl = stream_lanes_.data();
      std::size_t len = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const __m512 x = ASSAY_LOAD(rows[j]);
        const __mmask16 in =
            _mm512_mask_cmp_ps_mask(_mm512_cmp_ps_mask(x, lo, _CMP_GT_OQ), x, hi, _CMP_LE_OQ);
        _mm512_storeu_ps(sv + len, _mm512_maskz_compress_ps(in, x));
        _mm512_storeu_si512(sl + len, _mm512_maskz_compress_epi32(in, iota));
        len += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(in)));
      }
      // Each selecting lane's members, compressed out of the stream, then ranked.
      float* bucket = bucket_.data();
      alignas(64) std::int32_t c_hi_lane[kLanes];
      alignas(64) float t_lane[kLanes];
      _mm512_store_si512(c_hi_lane, c_hi);
      _mm512_store_ps(t_lane, threshold);
      for (unsigned bits = select; bits != 0; bits &= bits - 1) {
        const int l = std::countr_zero(bits);
        const __m512i lane = _mm512_set1_epi32(l);
        std::size_t b = 0;
        for (std::size_t e0 = 0; e0 < len; e0 += kLanes) {
          const __mmask16 valid =
              static_cast<__mmask16>(len - e0 >= kLanes ? 0xffffu : (1u << (len - e0)) - 1);
          const __mmask16 mine =
              _mm512_mask_cmpeq_epi32_mask(valid, _mm512_loadu_si512(sl + e0), lane);
          _mm512_storeu_ps(bucket + b, _mm512_maskz_compress_ps(mine, _mm512_loadu_ps(sv + e0)));
          b += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(mine)));
        }
        const std::size_t r = static_cast<std::size_t>(k - c_hi_lane[l]);
        float t = 0.0f;
        std::size_t greater = 0, equal = 0;
        if (b > 2 * kLanes || !rank_in_registers(bucket, b, r, t, greater, equal)) {
          bucket_threshold(bucket, b, r, t, greater, equal);
        }
        if (static_cast<std::size_t>(c_hi_lane[l]) + greater + equal == k_) {
          t_lane[l] = t;
        } else {  // a tie at the threshold: the earliest rows win, decided row by row
          t_lane[l] = inf;
          fallback = static_cast<__mmask16>(fallback | (1u << l));
        }
      }
      threshold = _mm512_load_ps(t_lane);
    }
    // Pass 3: the sums over similarities >= threshold, in row order.
    __m512 num = zero, den = zero;
    for (std::size_t j = 0; j < n; ++j) {
      const __m512 x = ASSAY_LOAD(rows[j]);
      const __mmask16 keep = _mm512_cmp_ps_mask(x, threshold, _CMP_GE_OQ);
      num = _mm512_mask_add_ps(num, keep, num, _mm512_mul_ps(x, _mm512_set1_ps(values[j])));
      den = _mm512_mask_add_ps(den, keep, den, x);
    }
    _mm512_mask_storeu_ps(num_out + c0, live, num);
    _mm512_mask_storeu_ps(den_out + c0, live, den);
    for (std::size_t l = 0; l < width; ++l) ok_out[c0 + l] = (none >> l) & 1u ? 0 : 1;
    for (unsigned bits = fallback; bits != 0; bits &= bits - 1) {
      const std::size_t col = c0 + static_cast<std::size_t>(std::countr_zero(bits));
      scalar_column(rows, values, n, col, num_out[col], den_out[col], ok_out[col]);
    }
#undef ASSAY_LOAD
  }
}

#endif

}  // namespace assay::recsys::kernels
