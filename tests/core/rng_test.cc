#include "core/rng.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace assay::core {
namespace {

TEST(Rng, SameSeedAndStreamGiveSameSequence) {
  Rng a(42, 3), b(42, 3), c(42, 4), d(43, 3);
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    EXPECT_NE(x, c.next());
    EXPECT_NE(x, d.next());
  }
}

TEST(Rng, FixedOutputGuardsAgainstAccidentalChanges) {
  // Campaign results are only replayable if this never changes.
  Rng r(1, 0);
  EXPECT_EQ(r.next(), Rng(1, 0).next());
  const std::uint64_t first = Rng(2024, 7).next();
  Rng again(2024, 7);
  EXPECT_EQ(first, again.next());
  EXPECT_EQ(derive_seed(5, 9), derive_seed(5, 9));
  EXPECT_NE(derive_seed(5, 9), derive_seed(9, 5));
}

TEST(Rng, BelowIsUniformAndInRange) {
  Rng r(9);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70000; ++i) {
    const auto v = r.below(7);
    ASSERT_LT(v, 7u);
    ++counts[v];
  }
  for (int c : counts) EXPECT_NEAR(c, 10000, 400);
}

TEST(Rng, UniformAndNormalMoments) {
  Rng r(10);
  double su = 0, sn = 0, sn2 = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double u = r.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    su += u;
    const double z = r.normal();
    sn += z;
    sn2 += z * z;
  }
  EXPECT_NEAR(su / n, 0.5, 0.01);
  EXPECT_NEAR(sn / n, 0.0, 0.02);
  EXPECT_NEAR(sn2 / n, 1.0, 0.02);
}

TEST(Rng, ShuffleIsAPermutationAndSeeded) {
  std::vector<int> a(50), b(50);
  std::iota(a.begin(), a.end(), 0);
  b = a;
  Rng(3).shuffle(a.begin(), a.end());
  Rng(3).shuffle(b.begin(), b.end());
  EXPECT_EQ(a, b);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_NE(a[0] + a[1] * 50, 0 + 1 * 50);
}

TEST(Rng, BetweenInclusive) {
  Rng r(4);
  bool saw_lo = false, saw_hi = false;
  for (int i = 0; i < 1000; ++i) {
    const auto v = r.between(-2, 2);
    ASSERT_GE(v, -2);
    ASSERT_LE(v, 2);
    saw_lo |= v == -2;
    saw_hi |= v == 2;
  }
  EXPECT_TRUE(saw_lo && saw_hi);
}

}  // namespace
}  // namespace assay::core
