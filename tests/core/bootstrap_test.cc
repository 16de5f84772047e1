#include "core/bootstrap.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/rng.h"
#include "core/stats_goldens.h"
#include "core/summary_stats.h"

namespace assay::core {
namespace {

double mean_of(std::span<const double> x) {
  return mean(x);
}

TEST(Bootstrap, CoversTheMeanAndIsReproducible) {
  Rng rng(7);
  std::vector<double> x(400);
  for (auto& v : x) v = 3.0 + rng.normal();
  BootstrapOptions o;
  o.seed = 11;
  const auto a = bootstrap_ci(x, mean_of, o);
  const auto b = bootstrap_ci(x, mean_of, o);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  EXPECT_LT(a.low, a.estimate);
  EXPECT_GT(a.high, a.estimate);
  // Standard error ~ 1/20; a 95% interval is about +-0.1 wide.
  EXPECT_NEAR(a.high - a.low, 2 * 1.96 / 20.0, 0.04);
  o.seed = 12;
  EXPECT_NE(bootstrap_ci(x, mean_of, o).low, a.low);
}

TEST(Bootstrap, AgreesWithScipyPercentileBootstrap) {
  for (const auto& c : testing::stats_goldens().at("bootstrap")) {
    const auto x = c.at("x").get<std::vector<double>>();
    BootstrapOptions o;
    o.n_resamples = 20000;
    const auto ci = bootstrap_ci(x, mean_of, o);
    // Two independent Monte Carlo estimates of each bound: allow a fifth of a standard error.
    const double tolerance = 0.2 * c.at("se").get<double>();
    EXPECT_NEAR(ci.low, c.at("low").get<double>(), tolerance);
    EXPECT_NEAR(ci.high, c.at("high").get<double>(), tolerance);
  }
}

TEST(Bootstrap, MeanDifferenceAgreesWithScipyTwoSampleBootstrap) {
  for (const auto& c : testing::stats_goldens().at("bootstrap_difference")) {
    const auto a = c.at("a").get<std::vector<double>>();
    const auto b = c.at("b").get<std::vector<double>>();
    BootstrapOptions o;
    o.n_resamples = 20000;
    const auto ci = bootstrap_mean_difference_ci(a, b, o);
    EXPECT_NEAR(ci.estimate, mean(a) - mean(b), 1e-15);
    const double tolerance = 0.2 * c.at("se").get<double>();
    EXPECT_NEAR(ci.low, c.at("low").get<double>(), tolerance);
    EXPECT_NEAR(ci.high, c.at("high").get<double>(), tolerance);
    // Same seed, same interval; another seed, another.
    EXPECT_EQ(bootstrap_mean_difference_ci(a, b, o).low, ci.low);
    o.seed = 5;
    EXPECT_NE(bootstrap_mean_difference_ci(a, b, o).low, ci.low);
  }
  const std::vector<double> empty, one{1.0};
  EXPECT_TRUE(std::isnan(bootstrap_mean_difference_ci(empty, one).low));
}

TEST(Bootstrap, QuantileInterpolatesLikeNumpy) {
  const std::vector<double> v{1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 1.0), 4.0);
}

}  // namespace
}  // namespace assay::core
