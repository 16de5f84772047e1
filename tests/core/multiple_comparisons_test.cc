#include "core/multiple_comparisons.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace assay::core {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Worked by hand from the definitions (and as R's p.adjust gives):
// sorted 0.005 0.01 0.03 0.04 0.2; Holm multiplies by 5 4 3 2 1 and keeps the running maximum;
// BH multiplies by 5/1 5/2 5/3 5/4 5/5 and keeps the running minimum from the largest down.
TEST(MultipleComparisons, HolmAsPAdjust) {
  const std::vector<double> p{0.01, 0.04, 0.03, 0.005, 0.2};
  const auto h = holm_adjust(p);
  const std::vector<double> want{0.04, 0.09, 0.09, 0.025, 0.2};
  ASSERT_EQ(h.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(h[i], want[i], 1e-15) << i;
}

TEST(MultipleComparisons, BenjaminiHochbergAsPAdjust) {
  const std::vector<double> p{0.01, 0.04, 0.03, 0.005, 0.2};
  const auto b = benjamini_hochberg_adjust(p);
  const std::vector<double> want{0.025, 0.05, 0.05, 0.025, 0.2};
  ASSERT_EQ(b.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(b[i], want[i], 1e-15) << i;
}

TEST(MultipleComparisons, NaNIsNoTestAndValuesAreCappedAtOne) {
  const std::vector<double> p{kNaN, 0.5, 0.02, kNaN, 0.9};
  const auto h = holm_adjust(p);
  const auto b = benjamini_hochberg_adjust(p);
  EXPECT_TRUE(std::isnan(h[0]) && std::isnan(h[3]) && std::isnan(b[0]) && std::isnan(b[3]));
  // A family of three: 0.02 * 3, then min(1, 0.5 * 2), then max(1, 0.9).
  EXPECT_NEAR(h[2], 0.06, 1e-15);
  EXPECT_EQ(h[1], 1.0);
  EXPECT_EQ(h[4], 1.0);
  EXPECT_NEAR(b[2], 0.06, 1e-15);
  EXPECT_NEAR(b[1], 0.75, 1e-15);
  EXPECT_NEAR(b[4], 0.9, 1e-15);
  EXPECT_TRUE(holm_adjust(std::vector<double>{}).empty());
}

TEST(MultipleComparisons, HolmIsNeverBelowBenjaminiHochbergNorTheRawP) {
  std::vector<double> p;
  for (int i = 1; i <= 40; ++i) p.push_back(std::fmod(0.37 * i * i, 1.0) / 3);
  const auto h = holm_adjust(p);
  const auto b = benjamini_hochberg_adjust(p);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_GE(h[i], b[i] - 1e-15) << i;
    EXPECT_GE(b[i], p[i] - 1e-15) << i;
    EXPECT_LE(h[i], 1.0);
  }
}

}  // namespace
}  // namespace assay::core
