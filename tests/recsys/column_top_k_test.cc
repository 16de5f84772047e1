// ColumnTopK against TopNeighbors column by column, bit for bit: random blocks with zeros,
// negative values, heavy ties and every regime of n against k, and level grids both well and
// badly placed (the levels only steer the search; the answer must not depend on them).
#include "recsys/kernels/column_top_k.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/rng.h"
#include "recsys/top_neighbors.h"

namespace {

using assay::core::Isa;
using assay::recsys::TopNeighbors;
using assay::recsys::kernels::ColumnLevels;
using assay::recsys::kernels::ColumnTopK;

std::uint32_t bits(float x) {
  std::uint32_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

struct Block {
  std::size_t n = 0, n_cols = 0;
  std::vector<float> data;  // n rows of n_cols
  std::vector<float> values;
  std::vector<const float*> rows;
};

// Similarities drawn from `distinct` values (few: many ties), a share of zeros and negatives.
Block random_block(std::size_t n, std::size_t n_cols, std::size_t distinct, std::uint64_t seed) {
  assay::core::Rng rng(seed, 7);
  Block b;
  b.n = n;
  b.n_cols = n_cols;
  b.data.resize(n * n_cols);
  for (float& x : b.data) {
    const double u = rng.uniform();
    if (u < 0.3) {
      x = 0.0f;
    } else if (u < 0.4) {
      x = -static_cast<float>(rng.uniform());
    } else {
      x = static_cast<float>(1 + rng.below(distinct)) / static_cast<float>(distinct);
    }
  }
  b.values.resize(n);
  for (float& v : b.values) v = static_cast<float>(rng.uniform() * 4.0 - 2.0);
  for (std::size_t j = 0; j < n; ++j) b.rows.push_back(b.data.data() + j * n_cols);
  return b;
}

// A grid of level rows for the block: row h holds, per column, the value at rank
// (h + 1) * step of the column (0 beyond the positives), so rows decrease down the grid.
std::vector<float> level_grid(const Block& b, std::size_t n_grid, std::size_t step) {
  std::vector<float> grid(n_grid * b.n_cols, 0.0f);
  for (std::size_t c = 0; c < b.n_cols; ++c) {
    std::vector<float> col;
    for (std::size_t j = 0; j < b.n; ++j) {
      if (b.rows[j][c] > 0.0f) col.push_back(b.rows[j][c]);
    }
    std::sort(col.rbegin(), col.rend());
    for (std::size_t h = 0; h < n_grid; ++h) {
      const std::size_t rank = (h + 1) * step;
      if (rank <= col.size()) grid[h * b.n_cols + c] = col[rank - 1];
    }
  }
  return grid;
}

// The paths this machine may run: scalar always, SSE2 and AVX-512 up to kernels::isa().
std::vector<Isa> isas() {
  std::vector<Isa> out{Isa::kScalar};
  if (assay::recsys::kernels::has_sse2()) out.push_back(Isa::kSse2);
  if (assay::recsys::kernels::has_avx512()) out.push_back(Isa::kAvx512);
  return out;
}

void expect_same_as_top_neighbors(const Block& b, std::size_t k, const ColumnLevels& levels) {
  for (const Isa isa : isas()) {
    SCOPED_TRACE(std::string(assay::core::isa_name(isa)));
    std::vector<float> num(b.n_cols), den(b.n_cols);
    std::vector<std::uint8_t> ok(b.n_cols);
    ColumnTopK top(isa);
    ASSERT_EQ(top.isa(), isa);
    top.run(b.rows.data(), b.values.data(), b.n, b.n_cols, k, levels, num.data(), den.data(),
            ok.data());
    TopNeighbors ref(k);
    std::vector<float> column(b.n);
    for (std::size_t c = 0; c < b.n_cols; ++c) {
      for (std::size_t j = 0; j < b.n; ++j) column[j] = b.rows[j][c];
      float rn = 0, rd = 0;
      const bool rok = ref.sums(column.data(), b.values.data(), b.n, rn, rd);
      ASSERT_EQ(ok[c] != 0, rok) << "column " << c << " n " << b.n;
      if (!rok) continue;
      ASSERT_EQ(bits(num[c]), bits(rn)) << "column " << c << " n " << b.n << " k " << k;
      ASSERT_EQ(bits(den[c]), bits(rd)) << "column " << c << " n " << b.n << " k " << k;
    }
  }
}

TEST(ColumnTopK, MatchesTopNeighborsBitForBit) {
  std::uint64_t seed = 1;
  for (std::size_t n : {0, 1, 5, 19, 20, 21, 37, 64, 150, 400}) {
    for (std::size_t distinct : {3, 40, 100000}) {
      // 64 columns, and 40: a last block of 8 behind a full one of 16 (and of 4).
      const Block b = random_block(n, seed % 2 == 0 ? 64 : 40, distinct, seed);
      ++seed;
      for (std::size_t k : {1, 5, 20}) {
        for (std::size_t step : {1, 3, 17}) {
          const std::vector<float> grid = level_grid(b, 24, step);
          for (std::size_t start : {0, 7, 23}) {
            expect_same_as_top_neighbors(b, k, {grid.data(), 24, b.n_cols, start});
          }
        }
        expect_same_as_top_neighbors(b, k, {});  // no levels: one bucket of all positives
      }
    }
  }
}

TEST(ColumnTopK, LevelsThatMissEverywhereStillGiveTheExactAnswer) {
  const Block b = random_block(120, 32, 1000, 99);
  // All levels above every value (nothing counts) or all zero (everything counts).
  const std::vector<float> high(8 * 32, 2.0f), low(8 * 32, 0.0f);
  expect_same_as_top_neighbors(b, 20, {high.data(), 8, 32, 4});
  expect_same_as_top_neighbors(b, 20, {low.data(), 8, 32, 4});
}

TEST(ColumnTopK, TiesBeyondKFallBackToTheRowOrderRule) {
  // Every positive similarity equal: the first k rows win, whatever the levels say.
  Block b = random_block(50, 8, 1, 5);
  for (float& x : b.data) x = x > 0.0f ? 0.5f : x;
  const std::vector<float> grid = level_grid(b, 4, 10);
  expect_same_as_top_neighbors(b, 20, {grid.data(), 4, b.n_cols, 1});
  for (const Isa isa : isas()) {
    ColumnTopK top(isa);
    std::vector<float> num(8), den(8);
    std::vector<std::uint8_t> ok(8);
    top.run(b.rows.data(), b.values.data(), b.n, b.n_cols, 20, {grid.data(), 4, b.n_cols, 1},
            num.data(), den.data(), ok.data());
    EXPECT_GT(top.last_fallbacks(), 0u);
  }
}

TEST(ColumnTopK, FollowsTheOneIsaSelection) {
  // The default is kernels::isa() (the CPU, lowered by ASSAY_ISA); a request is never raised.
  EXPECT_EQ(ColumnTopK().isa(), assay::recsys::kernels::isa());
  EXPECT_EQ(ColumnTopK(Isa::kAvx512).isa(), assay::recsys::kernels::isa());
  EXPECT_EQ(ColumnTopK(Isa::kScalar).isa(), Isa::kScalar);
}

}  // namespace
