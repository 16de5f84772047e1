#include "core/hypothesis_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
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

// Exact permutation p (scipy.stats.permutation_test on the rank sum) for small samples, the
// asymptotic Mann-Whitney p (scipy.stats.mannwhitneyu) for large ones, on zero-inflated values.
TEST(RankSum, MatchesScipy) {
  for (const auto& c : testing::stats_goldens().at("rank_sum")) {
    const auto a = c.at("a").get<std::vector<double>>();
    const auto b = c.at("b").get<std::vector<double>>();
    const RankSumResult r = rank_sum_test(a, b);
    EXPECT_EQ(r.exact, c.at("exact").get<bool>()) << a.size() << "," << b.size();
    EXPECT_DOUBLE_EQ(r.u, c.at("u").get<double>()) << a.size() << "," << b.size();
    const double p = c.at("p").get<double>();
    EXPECT_NEAR(r.p, p, 1e-9 * std::max(p, 1e-3)) << a.size() << "," << b.size();
    EXPECT_DOUBLE_EQ(r.superiority, r.u / static_cast<double>(a.size() * b.size()));
  }
}

// The exact p against a count over every assignment of the pooled values to the two samples.
TEST(RankSum, ExactPIsTheShareOfAssignmentsAsExtreme) {
  const std::vector<double> a{0, 0, 0.2, 0.5, 0.5, 0.9, 0.01};
  const std::vector<double> b{0, 0, 0, 0, 0.2, 0.01, 0, 0.3};
  std::vector<double> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  const auto u_of = [](const std::vector<double>& x, const std::vector<double>& y) {
    double u = 0;
    for (const double v : x) {
      for (const double w : y) u += v > w ? 1.0 : v == w ? 0.5 : 0.0;
    }
    return u;
  };
  const double observed = u_of(a, b);
  std::vector<bool> pick(pooled.size(), false);
  std::fill(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(a.size()), true);
  double all = 0, low = 0, high = 0;
  do {
    std::vector<double> x, y;
    for (std::size_t i = 0; i < pooled.size(); ++i) (pick[i] ? x : y).push_back(pooled[i]);
    const double u = u_of(x, y);
    ++all;
    low += u <= observed + 1e-9 ? 1 : 0;
    high += u >= observed - 1e-9 ? 1 : 0;
  } while (std::prev_permutation(pick.begin(), pick.end()));
  const RankSumResult r = rank_sum_test(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, observed);
  EXPECT_NEAR(r.p, std::min(1.0, 2 * std::min(low, high) / all), 1e-12);
}

// A heuristic that moves a few users in every trial and many in three, against random
// modifications that move no one: Welch's test sees a large variance and misses it (p 0.081,
// scipy.stats.ttest_ind(equal_var=False)); the rank-sum test sees every trial above every
// baseline trial (exact p = 2 / C(40, 20)).
TEST(RankSum, FindsAZeroInflatedEffectThatWelchMisses) {
  std::vector<double> heuristic(20, 0.001), random(20, 0.0);
  heuristic[3] = heuristic[9] = heuristic[15] = 0.9;
  EXPECT_NEAR(welch_t_test(heuristic, random).p, 0.08073199293860338, 1e-9);
  const RankSumResult r = rank_sum_test(heuristic, random);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.p, 2.0 / 137846528820.0, 1e-20);
  EXPECT_DOUBLE_EQ(r.superiority, 1.0);
}

TEST(RankSum, NoTestWithoutDataOrWhenEveryValueIsEqual) {
  const std::vector<double> zeros(10, 0.0), empty;
  EXPECT_TRUE(std::isnan(rank_sum_test(zeros, zeros).p));
  EXPECT_DOUBLE_EQ(rank_sum_test(zeros, zeros).superiority, 0.5);
  EXPECT_TRUE(std::isnan(rank_sum_test(zeros, empty).p));
  EXPECT_TRUE(std::isnan(rank_sum_test(empty, zeros).superiority));
  // Large samples take the normal approximation; one value apart from the rest still tests.
  std::vector<double> many(30, 0.0), one(30, 0.0);
  one[0] = 0.5;
  const auto r = rank_sum_test(many, one);
  EXPECT_FALSE(r.exact);
  EXPECT_GT(r.p, 0.3);
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
