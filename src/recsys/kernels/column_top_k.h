// Column-wise neighbourhood averages: the same answer as TopNeighbors::weighted_average for
// every column c of a block whose rows are rows[0..n) (row j holds sim(j, c) for all c), so
// that a user's scores for all items come out of contiguous loads instead of one gather and
// one selection per item.
//
// For each column: among the rows with similarity > 0, the k most similar (ties: the earlier
// row), aggregated as sum(sim * value) / sum(sim) with both sums in float and in row order,
// exactly as TopNeighbors does. The k-th largest similarity of a column is found in three
// passes of four columns at a time (SSE2): (1) counts of similarities above a few per-column
// levels (quantiles of the column item's own neighbour list, precomputed at fit time) give
// the bucket that holds it; (2) the few values in that bucket are collected and the exact
// threshold selected; (3) the weighted sums over the similarities >= threshold. With AVX-512
// (chosen at run time through isa.h, the same bits) sixteen columns go at a time, pass 2
// compresses each row's bucket members into one stream, each column's members are compressed
// out of it and ranked in registers. A column whose threshold is tied beyond k falls back to
// TopNeighbors over the gathered column. At Isa::kScalar every column takes that path (the
// reference, TopNeighbors itself).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "recsys/kernels/isa.h"

namespace assay::recsys::kernels {

struct ColumnLevels {
  // n_grid level rows of n_cols floats, row h at grid + h * stride, each row <= the one
  // before it column by column (levels at growing positions of a sorted list); run() starts
  // with the rows around `start` and follows where the k-th largest values turn out to lie.
  const float* grid = nullptr;
  std::size_t n_grid = 0;
  std::size_t stride = 0;
  std::size_t start = 0;
};

class ColumnTopK {
 public:
  // Which passes run(): AVX-512 (16 columns at a time), SSE2 (4 columns) or the scalar
  // reference per column. The default is kernels::isa(); an explicit choice is lowered to
  // kernels::isa() (never raised). Every choice gives the same bits; tests pin each one.
  ColumnTopK() : ColumnTopK(kernels::isa()) {}
  explicit ColumnTopK(core::Isa isa);
  core::Isa isa() const { return isa_; }

  // num_out/den_out/ok_out have n_cols entries (n_cols a multiple of 4; rows and level rows
  // hold n_cols floats). ok_out[c] = 0 when column c has no positive similarity (the score is
  // undefined), else 1 and num_out/den_out hold the two sums. `levels` may be empty when
  // n <= k (no selection is needed then). `readable` (>= n_cols; 0 means n_cols) is how many
  // floats each row holds from rows[j] on: the passes prefetch up to there, so a caller that
  // scores long rows chunk by chunk finds each chunk's first columns already on their way.
  void run(const float* const* rows, const float* values, std::size_t n, std::size_t n_cols,
           std::size_t k, const ColumnLevels& levels, float* num_out, float* den_out,
           std::uint8_t* ok_out, std::size_t readable = 0);

  // Columns that needed the scalar fallback in the last run (ties at the threshold, or
  // every column at Isa::kScalar): for tests and tuning.
  std::size_t last_fallbacks() const { return fallbacks_; }

 private:
  void run_sse2(const float* const* rows, const float* values, std::size_t n, std::size_t n_cols,
                std::size_t readable, const ColumnLevels& levels, float* num_out, float* den_out,
                std::uint8_t* ok_out);
  void run_avx512(const float* const* rows, const float* values, std::size_t n, std::size_t n_cols,
                  std::size_t readable, const ColumnLevels& levels, float* num_out, float* den_out,
                  std::uint8_t* ok_out);
  // The threshold of a bucket v[0..b) that holds the r-th largest value (1 <= r <= b): t,
  // with `greater` values above it and `equal` values equal to it in the bucket.
  void bucket_threshold(const float* v, std::size_t b, std::size_t r, float& t,
                        std::size_t& greater, std::size_t& equal);
  void scalar_column(const float* const* rows, const float* values, std::size_t n, std::size_t col,
                     float& num, float& den, std::uint8_t& ok);

  core::Isa isa_;
  std::size_t k_ = 0;
  std::size_t fallbacks_ = 0;
  std::vector<float> bucket_, column_, work_, spare_, stream_values_;
  std::vector<std::uint32_t> stream_lanes_;
};

}  // namespace assay::recsys::kernels
