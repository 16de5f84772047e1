#include "core/hypothesis_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/stats_goldens.h"

namespace assay::core {
namespace {

TEST(StudentT, CdfMatchesScipy) {
  for (const auto& c : testing::stats_goldens().at("student_t_cdf")) {
    const double expected = c.at("cdf").get<double>();
    EXPECT_NEAR(student_t_cdf(c.at("t").get<double>(), c.at("df").get<double>()), expected,
                1e-10 * std::max(1.0, expected))
        << c.dump();
  }
}

TEST(Welch, MatchesScipyTtestInd) {
  for (const auto& c : testing::stats_goldens().at("welch")) {
    const auto a = c.at("a").get<std::vector<double>>();
    const auto b = c.at("b").get<std::vector<double>>();
    const WelchResult r = welch_t_test(a, b);
    EXPECT_NEAR(r.t, c.at("t").get<double>(), 1e-10);
    const double p = c.at("p").get<double>();
    EXPECT_NEAR(r.p, p, 1e-9 * std::max(p, 1e-3)) << "n=" << a.size() << "," << b.size();
  }
}

// scipy.stats.t.ppf (scipy 1.10.1).
TEST(StudentT, QuantileMatchesScipy) {
  const struct {
    double q, df, want;
  } cases[] = {{0.975, 1, 12.706204736432095},  {0.975, 3, 3.182446305284263},
               {0.975, 5.5, 2.501858612469493}, {0.975, 19, 2.093024054408263},
               {0.025, 7, -2.3646242510103},    {0.995, 30, 2.7499956535670305}};
  for (const auto& c : cases) {
    EXPECT_NEAR(student_t_quantile(c.q, c.df), c.want, 1e-7 * std::fabs(c.want))
        << c.q << " " << c.df;
  }
  EXPECT_TRUE(std::isnan(student_t_quantile(0, 3)));
  EXPECT_TRUE(std::isnan(student_t_quantile(0.5, 0)));
}

TEST(Welch, IdenticalConstantSamplesGiveNaN) {
  const std::vector<double> a{1, 1, 1}, b{1, 1, 1};
  EXPECT_TRUE(std::isnan(welch_t_test(a, b).p));
  EXPECT_TRUE(std::isnan(welch_t_test(std::vector<double>{1.0}, b).p));
}

TEST(IncompleteBeta, KnownValues) {
  EXPECT_NEAR(incomplete_beta(1, 1, 0.3), 0.3, 1e-14);
  EXPECT_NEAR(incomplete_beta(2, 3, 0.4), 0.5248, 1e-12);  // 1 - sum binomial terms
  EXPECT_TRUE(std::isnan(incomplete_beta(-1, 1, 0.5)));
}

// The exact sign test against scipy.stats.binomtest(k, n) (p = 1/2): its p-value and
// proportion_ci() (Clopper–Pearson, 95 %), values printed by scipy 1.10.
TEST(SignTest, MatchesScipyBinomtest) {
  struct Case {
    std::size_t k, n;
    double p, low, high;
  };
  for (const auto& c :
       std::vector<Case>{{3, 10, 0.34375, 0.06673951117773447, 0.652452850060008},
                         {0, 5, 0.0625, 0.0, 0.5218237501049814},
                         {9, 10, 0.021484375, 0.5549838829718047, 0.9974714214555375},
                         {50, 120, 0.08240747932752653, 0.32736767000327854, 0.5101784457977083},
                         {1, 1, 1.0, 0.025000000000000022, 1.0},
                         {12, 13, 0.00341796875, 0.6397025647321226, 0.9980543715026514}}) {
    const auto r = sign_test(c.k, c.n);
    EXPECT_NEAR(r.p, c.p, 1e-12) << c.k << "/" << c.n;
    EXPECT_NEAR(r.low, c.low, 1e-9) << c.k << "/" << c.n;
    EXPECT_NEAR(r.high, c.high, 1e-9) << c.k << "/" << c.n;
    EXPECT_DOUBLE_EQ(r.share, static_cast<double>(c.k) / static_cast<double>(c.n));
  }
  const auto none = sign_test(0, 0);
  EXPECT_EQ(none.p, 1.0);
  EXPECT_TRUE(std::isnan(none.share));
  EXPECT_EQ(none.low, 0.0);
  EXPECT_EQ(none.high, 1.0);
}

}  // namespace
}  // namespace assay::core
