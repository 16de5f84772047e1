#include "core/summary_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/stats_goldens.h"

namespace assay::core {
namespace {

TEST(SummaryStats, MatchesNumpyAndScipy) {
  for (const auto& c : testing::stats_goldens().at("describe")) {
    const auto x = c.at("x").get<std::vector<double>>();
    EXPECT_NEAR(mean(x), c.at("mean").get<double>(), 1e-12);
    EXPECT_NEAR(standard_deviation(x), c.at("sd").get<double>(), 1e-12);
  }
  for (const auto& c : testing::stats_goldens().at("pearson")) {
    const auto x = c.at("x").get<std::vector<double>>();
    const auto y = c.at("y").get<std::vector<double>>();
    EXPECT_NEAR(pearson(x, y), c.at("r").get<double>(), 1e-12);
  }
}

TEST(SummaryStats, DegenerateInputsAreNaN) {
  const std::vector<double> empty, one{1.0}, flat{2, 2, 2};
  EXPECT_TRUE(std::isnan(mean(empty)));
  EXPECT_TRUE(std::isnan(standard_deviation(one)));
  EXPECT_TRUE(std::isnan(pearson(flat, std::vector<double>{1, 2, 3})));
  EXPECT_TRUE(std::isnan(pearson(one, one)));
  EXPECT_DOUBLE_EQ(standard_deviation(flat), 0.0);
}

}  // namespace
}  // namespace assay::core
