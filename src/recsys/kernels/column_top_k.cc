#include "recsys/kernels/column_top_k.h"

#include <algorithm>
#include <limits>

#include "recsys/top_neighbors.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#define ASSAY_COLUMN_TOP_K_SSE2 1
#endif

namespace assay::recsys::kernels {

ColumnTopK::ColumnTopK(core::Isa isa) : isa_(std::min(isa, kernels::isa())) {}

void ColumnTopK::run(const float* const* rows, const float* values, std::size_t n,
                     std::size_t n_cols, std::size_t k, const ColumnLevels& levels, float* num_out,
                     float* den_out, std::uint8_t* ok_out, std::size_t readable) {
  k_ = k;
  readable = std::max(readable, n_cols);
  fallbacks_ = 0;
  if (isa_ == core::Isa::kAvx512) {
    run_avx512(rows, values, n, n_cols, readable, levels, num_out, den_out, ok_out);
  } else if (isa_ == core::Isa::kSse2) {
    run_sse2(rows, values, n, n_cols, readable, levels, num_out, den_out, ok_out);
  } else {
    for (std::size_t c = 0; c < n_cols; ++c)
      scalar_column(rows, values, n, c, num_out[c], den_out[c], ok_out[c]);
  }
}

void ColumnTopK::bucket_threshold(const float* v, std::size_t b, std::size_t r, float& t,
                                  std::size_t& greater_out, std::size_t& equal_out) {
  constexpr std::size_t kSmallBucket = 32;
  if (b <= kSmallBucket) {
    // Small buckets: rank every value against all (branch-free inside); the threshold is
    // the value with greater < r <= greater + equal.
    for (std::size_t q = 0; q < b; ++q) {
      std::size_t greater = 0, same = 0;
      for (std::size_t e = 0; e < b; ++e) {
        greater += v[e] > v[q] ? 1 : 0;
        same += v[e] == v[q] ? 1 : 0;
      }
      if (greater < r && r <= greater + same) {
        t = v[q];
        greater_out = greater;
        equal_out = same;
        return;
      }
    }
  }
  if (work_.size() < b) {
    work_.resize(b);
    spare_.resize(b);
  }
  std::copy(v, v + b, work_.begin());
  t = TopNeighbors::kth_largest(work_.data(), spare_.data(), b, r);
  greater_out = 0;
  equal_out = 0;
  for (std::size_t q = 0; q < b; ++q) {
    greater_out += v[q] > t ? 1 : 0;
    equal_out += v[q] == t ? 1 : 0;
  }
}

void ColumnTopK::scalar_column(const float* const* rows, const float* values, std::size_t n,
                               std::size_t col, float& num, float& den, std::uint8_t& ok) {
  column_.resize(n);
  for (std::size_t j = 0; j < n; ++j) column_[j] = rows[j][col];
  TopNeighbors top(k_);
  ok = top.sums(column_.data(), values, n, num, den) ? 1 : 0;
  ++fallbacks_;
}

#ifndef ASSAY_COLUMN_TOP_K_SSE2

void ColumnTopK::run_sse2(const float* const* rows, const float* values, std::size_t n,
                          std::size_t n_cols, std::size_t, const ColumnLevels&, float* num_out,
                          float* den_out, std::uint8_t* ok_out) {
  for (std::size_t c = 0; c < n_cols; ++c)
    scalar_column(rows, values, n, c, num_out[c], den_out[c], ok_out[c]);
}

#else

namespace {
constexpr std::size_t kPrefetchAhead = 32;  // columns
constexpr std::ptrdiff_t kSpacing = 2;      // grid rows between two levels (positions x 1.41)
enum class Lane : std::uint8_t { kNone, kAll, kSelect, kFallback };

__m128i count_greater(__m128i count, __m128 x, __m128 level) {
  return _mm_sub_epi32(count, _mm_castps_si128(_mm_cmpgt_ps(x, level)));
}

}  // namespace

void ColumnTopK::run_sse2(const float* const* rows, const float* values, std::size_t n,
                          std::size_t n_cols, std::size_t readable, const ColumnLevels& levels,
                          float* num_out, float* den_out, std::uint8_t* ok_out) {
  const float inf = std::numeric_limits<float>::infinity();
  const int k = static_cast<int>(k_);
  bucket_.resize(4 * (n + 1));  // + 1: the branch-free collect stores one past the last
  const __m128 zero = _mm_setzero_ps();
  const std::ptrdiff_t last_row = static_cast<std::ptrdiff_t>(levels.n_grid) - 1;
  std::ptrdiff_t centre = static_cast<std::ptrdiff_t>(levels.start);
  for (std::size_t c0 = 0; c0 < n_cols; c0 += 4) {
    if (c0 % 16 == 0 && c0 + kPrefetchAhead < readable) {
      // Rows are far apart, too many streams for the hardware prefetcher: ask for the cache
      // lines of a later group of 16 columns while this one is worked on.
      for (std::size_t j = 0; j < n; ++j) {
        _mm_prefetch(reinterpret_cast<const char*>(rows[j] + c0 + kPrefetchAhead), _MM_HINT_T0);
      }
    }
    Lane lane[4];
    alignas(16) float threshold[4];
    // Pass 1: positive count m and the counts above the levels, per column.
    alignas(16) std::int32_t m[4];
    bool any_select = false;
    alignas(16) float lo[4], hi[4];
    std::int32_t c_hi[4] = {0, 0, 0, 0};
    if (n <= k_ || levels.n_grid == 0) {
      __m128i cm = _mm_setzero_si128();
      for (std::size_t j = 0; j < n; ++j) cm = count_greater(cm, _mm_loadu_ps(rows[j] + c0), zero);
      _mm_store_si128(reinterpret_cast<__m128i*>(m), cm);
      for (int l = 0; l < 4; ++l) {
        lane[l] = m[l] == 0 ? Lane::kNone : m[l] <= k ? Lane::kAll : Lane::kSelect;
        threshold[l] = m[l] == 0 ? inf : 0.0f;
        lo[l] = 0.0f;
        hi[l] = inf;
        c_hi[l] = 0;
        any_select = any_select || lane[l] == Lane::kSelect;
      }
    } else {
      // Six levels around the centre, kSpacing grid rows apart.
      const float* lr[6];
      for (int q = 0; q < 6; ++q) {
        const std::ptrdiff_t h = centre + kSpacing * q - (5 * kSpacing + 1) / 2;
        lr[q] = levels.grid + static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(h, 0, last_row)) *
                                  levels.stride;
      }
      const __m128 v0 = _mm_loadu_ps(lr[0] + c0), v1 = _mm_loadu_ps(lr[1] + c0),
                   v2 = _mm_loadu_ps(lr[2] + c0), v3 = _mm_loadu_ps(lr[3] + c0),
                   v4 = _mm_loadu_ps(lr[4] + c0), v5 = _mm_loadu_ps(lr[5] + c0);
      __m128i cm = _mm_setzero_si128(), i0 = cm, i1 = cm, i2 = cm, i3 = cm, i4 = cm, i5 = cm;
      for (std::size_t j = 0; j < n; ++j) {
        const __m128 x = _mm_loadu_ps(rows[j] + c0);
        cm = count_greater(cm, x, zero);
        i0 = count_greater(i0, x, v0);
        i1 = count_greater(i1, x, v1);
        i2 = count_greater(i2, x, v2);
        i3 = count_greater(i3, x, v3);
        i4 = count_greater(i4, x, v4);
        i5 = count_greater(i5, x, v5);
      }
      _mm_store_si128(reinterpret_cast<__m128i*>(m), cm);
      alignas(16) std::int32_t counts[6][4];
      alignas(16) float values_at[6][4];
      const __m128i ci[6] = {i0, i1, i2, i3, i4, i5};
      const __m128 vv[6] = {v0, v1, v2, v3, v4, v5};
      for (int h = 0; h < 6; ++h) {
        _mm_store_si128(reinterpret_cast<__m128i*>(counts[h]), ci[h]);
        _mm_store_ps(values_at[h], vv[h]);
      }
      // The bucket (lo, hi] that holds the k-th largest positive similarity: above hi there
      // are c_hi < k values, above lo at least k.
      std::ptrdiff_t drift = 0, n_drift = 0;
      for (int l = 0; l < 4; ++l) {
        lo[l] = inf;  // an empty bucket for lanes that select nothing
        hi[l] = inf;
        if (m[l] == 0) {
          lane[l] = Lane::kNone;
          threshold[l] = inf;
        } else if (m[l] <= k) {
          lane[l] = Lane::kAll;
          threshold[l] = 0.0f;
        } else {
          lane[l] = Lane::kSelect;
          any_select = true;
          int h = 0;
          while (h < 6 && counts[h][l] < k) ++h;
          hi[l] = h == 0 ? inf : values_at[h - 1][l];
          c_hi[l] = h == 0 ? 0 : counts[h - 1][l];
          lo[l] = h == 6 ? 0.0f : values_at[h][l];
          drift += h - 3;
          ++n_drift;
        }
      }
      // Follow this user's crossing point: it moves slowly from column to column.
      if (n_drift > 0) {
        centre = std::clamp<std::ptrdiff_t>(
            centre + std::clamp<std::ptrdiff_t>(drift * kSpacing / n_drift, -2, 2), 0, last_row);
      }
    }
    if (any_select) {
      // Pass 2: collect each lane's bucket, then select its exact threshold.
      const __m128 vlo = _mm_load_ps(lo), vhi = _mm_load_ps(hi);
      std::size_t filled[4] = {0, 0, 0, 0};
      float* buf[4] = {bucket_.data(), bucket_.data() + (n + 1), bucket_.data() + 2 * (n + 1),
                       bucket_.data() + 3 * (n + 1)};
      alignas(16) float xs[4];
      for (std::size_t j = 0; j < n; ++j) {  // branch-free: every lane stores, some advance
        const __m128 x = _mm_loadu_ps(rows[j] + c0);
        const int mask = _mm_movemask_ps(_mm_and_ps(_mm_cmpgt_ps(x, vlo), _mm_cmple_ps(x, vhi)));
        _mm_store_ps(xs, x);
        buf[0][filled[0]] = xs[0];
        filled[0] += static_cast<std::size_t>(mask & 1);
        buf[1][filled[1]] = xs[1];
        filled[1] += static_cast<std::size_t>((mask >> 1) & 1);
        buf[2][filled[2]] = xs[2];
        filled[2] += static_cast<std::size_t>((mask >> 2) & 1);
        buf[3][filled[3]] = xs[3];
        filled[3] += static_cast<std::size_t>((mask >> 3) & 1);
      }
      for (int l = 0; l < 4; ++l) {
        if (lane[l] != Lane::kSelect) continue;
        const std::size_t b = filled[l];
        const std::size_t r = static_cast<std::size_t>(k - c_hi[l]);
        float t = 0.0f;
        std::size_t greater = 0, equal = 0;
        bucket_threshold(buf[l], b, r, t, greater, equal);
        const std::size_t above = static_cast<std::size_t>(c_hi[l]) + greater;
        if (above + equal == k_) {
          threshold[l] = t;
        } else {  // a tie at the threshold: the earliest rows win, decided row by row
          lane[l] = Lane::kFallback;
          threshold[l] = inf;
        }
      }
    }
    // Pass 3: the sums over similarities >= threshold, in row order. Zeros may enter a
    // kAll lane's sums (threshold 0): they add exactly nothing.
    const __m128 vt = _mm_load_ps(threshold);
    __m128 num = _mm_setzero_ps(), den = _mm_setzero_ps();
    for (std::size_t j = 0; j < n; ++j) {
      const __m128 x = _mm_loadu_ps(rows[j] + c0);
      const __m128 keep = _mm_cmpge_ps(x, vt);
      num = _mm_add_ps(num, _mm_and_ps(_mm_mul_ps(x, _mm_set1_ps(values[j])), keep));
      den = _mm_add_ps(den, _mm_and_ps(x, keep));
    }
    alignas(16) float nums[4], dens[4];
    _mm_store_ps(nums, num);
    _mm_store_ps(dens, den);
    for (int l = 0; l < 4; ++l) {
      const std::size_t col = c0 + static_cast<std::size_t>(l);
      if (lane[l] == Lane::kFallback) {
        scalar_column(rows, values, n, col, num_out[col], den_out[col], ok_out[col]);
        continue;
      }
      num_out[col] = nums[l];
      den_out[col] = dens[l];
      ok_out[col] = lane[l] == Lane::kNone ? 0 : 1;
    }
  }
}

#endif

}  // namespace assay::recsys::kernels
