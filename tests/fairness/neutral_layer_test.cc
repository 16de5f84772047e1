#include "fairness/neutral_layer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "core/error.h"

namespace assay::fairness {
namespace {

using Outputs = std::vector<std::vector<double>>;
using ::testing::HasSubstr;

Outputs random_outputs(std::mt19937_64& rng, std::size_t k, std::size_t n) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Outputs o(k + 1, std::vector<double>(n));
  for (auto& v : o) {
    double sum = 0;
    for (double& x : v) sum += x = u(rng) < 0.1 ? 0.0 : u(rng);  // some exact zeros
    if (sum > 0)
      for (double& x : v) x /= sum;
  }
  return o;
}

// Theorem 1 on seeded random outputs: every pair of smoothed outputs within a factor e^ε.
TEST(NeutralLayer, PropertyPairwiseBoundOnRandomOutputs) {
  std::mt19937_64 rng(20200717);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t k = rng() % 17, n = 2 + rng() % 4;
    const double eps = std::vector<double>{0, 0.1, 0.5, 1, 1.8, 5, 10, 40}[rng() % 8];
    const auto o = random_outputs(rng, k, n);
    const auto s = neutral_smooth(o, eps);
    ASSERT_EQ(s.scores.size(), k + 1);
    EXPECT_EQ(s.certificate.k, k);
    EXPECT_EQ(s.certificate.epsilon, eps);
    const double bound = std::exp(eps) * (1 + 1e-12);
    for (const auto& fi : s.scores)
      for (const auto& fj : s.scores)
        for (std::size_t c = 0; c < n; ++c) ASSERT_LE(fi[c], bound * fj[c] + 1e-300) << trial;
    EXPECT_LE(realised_epsilon(s.scores), eps + 1e-9);
  }
}

TEST(NeutralLayer, EpsilonZeroGivesTheMeanLargeEpsilonGivesM) {
  const Outputs o = {{0.9, 0.1}, {0.2, 0.8}, {0.4, 0.6}};
  const auto mean = neutral_smooth(o, 0.0);
  for (const auto& f : mean.scores) {
    EXPECT_NEAR(f[0], 0.5, 1e-15);
    EXPECT_NEAR(f[1], 0.5, 1e-15);
  }
  EXPECT_EQ(realised_epsilon(mean.scores), 0.0);
  const auto tiny = neutral_smooth(o, 1e-9);
  EXPECT_NEAR(tiny.scores[0][0], 0.5, 1e-9);
  for (double eps : {50.0, 800.0, 1e6}) {  // e^800 overflows a double: must not matter
    const auto m = neutral_smooth(o, eps);
    for (std::size_t i = 0; i < o.size(); ++i)
      for (std::size_t c = 0; c < 2; ++c) EXPECT_NEAR(m.scores[i][c], o[i][c], 1e-15) << eps;
    EXPECT_EQ(m.label, 0u);
  }
  // In between: the formula itself, at ε = 1 with k = 2.
  const auto one = neutral_smooth(o, 1.0);
  const double e = std::exp(1.0);
  EXPECT_NEAR(one.scores[1][1], (e * 0.8 + 0.1 + 0.6) / (e + 2), 1e-15);
  // Smoothing moves the label of x0 to the majority at small ε.
  const Outputs flip = {{0.6, 0.4}, {0.1, 0.9}, {0.1, 0.9}};
  EXPECT_EQ(neutral_smooth(flip, 0.1).label, 1u);
  EXPECT_EQ(neutral_smooth(flip, 10).label, 0u);
}

TEST(NeutralLayer, EdgeCases) {
  // k = 0: f = M, certificate (ε, 0).
  const auto alone = neutral_smooth({{0.3, 0.7}}, 0.5);
  EXPECT_EQ(alone.scores, Outputs({{0.3, 0.7}}));
  EXPECT_EQ(alone.certificate.k, 0u);
  EXPECT_EQ(alone.label, 1u);
  // All-zero outputs stay zero (0 ≤ e^ε · 0); the label is the first.
  const auto zero = neutral_smooth({{0, 0}, {0, 0}}, 1);
  EXPECT_EQ(zero.scores, Outputs({{0, 0}, {0, 0}}));
  EXPECT_EQ(zero.label, 0u);
  EXPECT_EQ(realised_epsilon(zero.scores), 0.0);
  // A zero beside a positive score: ε = 0 still equalises, the realised bound is finite.
  EXPECT_EQ(realised_epsilon(neutral_smooth({{1, 0}, {0, 1}}, 2).scores), 2.0);
  EXPECT_EQ(realised_epsilon({{1, 0}, {0, 1}}), std::numeric_limits<double>::infinity());

  auto message = [](const Outputs& o, double eps) {
    try {
      neutral_smooth(o, eps);
    } catch (const core::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(message({{0.5, 0.5}, {0.5, nan}}, 1),
              HasSubstr("output 1, score 1 is NaN; the neutral layer needs finite non-negative"));
  EXPECT_THAT(message({{0.5, -0.25}}, 1), HasSubstr("output 0, score 1 is -0.25"));
  EXPECT_THAT(message({{0.5, std::numeric_limits<double>::infinity()}}, 1),
              HasSubstr("score 1 is inf"));
  EXPECT_THAT(message({{0.5, 0.5}, {1.0}}, 1), HasSubstr("output 1 has 1 scores, output 0 has 2"));
  EXPECT_THAT(message({}, 1), HasSubstr("no outputs"));
  EXPECT_THAT(message({{}}, 1), HasSubstr("no scores"));
  EXPECT_THROW(neutral_smooth({{1, 0}}, -0.1), core::UsageError);
  EXPECT_THROW(neutral_smooth({{1, 0}}, nan), core::UsageError);
  EXPECT_THROW(reference_smooth({{-1, 0}}, 1), core::Error);
}

// The reference code's weighting certifies ln(1 + e^ε), not ε: on random outputs it never
// exceeds that, on the worst case (one member all on class 0, the other all on class 1) it
// reaches it exactly, and ours reaches ε there.
TEST(NeutralLayer, ReferenceWeightingCertifiesLnOnePlusExpEpsilon) {
  std::mt19937_64 rng(7);
  for (double eps : {0.1, 0.5, 1.0, 1.8, 5.0, 10.0}) {
    const double certified = std::log1p(std::exp(eps));
    for (std::size_t k : {1u, 3u, 16u}) {
      Outputs worst(k + 1, {0.0, 1.0});
      worst[0] = {1.0, 0.0};
      const auto ref = reference_smooth(worst, eps);
      EXPECT_NEAR(ref.certificate.epsilon, certified, 1e-12);
      EXPECT_NEAR(realised_epsilon(ref.scores), certified, 1e-9) << eps << " " << k;
      EXPECT_NEAR(realised_epsilon(neutral_smooth(worst, eps).scores), eps, 1e-9);
      for (int t = 0; t < 200; ++t) {
        const auto o = random_outputs(rng, k, 3);
        EXPECT_LE(realised_epsilon(reference_smooth(o, eps).scores), certified + 1e-9);
      }
    }
  }
  // Centred: p - 1/n, the sign of a binary score decides, same label as uncentred.
  const Outputs o = {{0.7, 0.3}, {0.2, 0.8}};
  const auto c = reference_smooth(o, 1.0, true);
  const auto u = reference_smooth(o, 1.0, false);
  EXPECT_NEAR(c.scores[0][0], u.scores[0][0] - 0.5, 1e-15);
  EXPECT_EQ(c.label, u.label);
  EXPECT_LT(c.scores[0][1], 0.0);  // signed: no multiplicative bound applies
  // Its weights: (e^ε + 1)/(e^ε + k + 1) for x_i.
  const double e = std::exp(1.0);
  EXPECT_NEAR(u.scores[0][0], ((e + 1) * 0.7 + 0.2) / (e + 2), 1e-15);
}

// The class layer: any two members of a class — whatever the model answers for them, one of
// them possibly far from every text of the neighbourhood — are answered within e^ε, class by
// class; seeded random probabilities and the extreme corners of [0, 1].
TEST(ClassLayer, PropertyAnyTwoMembersWithinTheBound) {
  std::mt19937_64 rng(20261207);
  std::size_t tight = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t n = 2 + rng() % 3, k = rng() % 6;
    const double eps = std::vector<double>{0, 0.1, 0.5, 1, 1.8, 5, 10, 40}[rng() % 8];
    const auto neighbourhood = random_outputs(rng, k, n);
    const auto reference = class_reference(neighbourhood);
    auto members = random_outputs(rng, 3, n);
    // Corners: all on one class, all on another.
    members.push_back(std::vector<double>(n, 0.0));
    members.back()[0] = 1.0;
    members.push_back(std::vector<double>(n, 0.0));
    members.back()[n - 1] = 1.0;
    Outputs f;
    for (const auto& m : members) f.push_back(class_smooth(m, reference, eps).scores);
    const double realised = realised_epsilon(f);
    EXPECT_LE(realised, eps + 1e-12) << trial;
    tight += realised > eps - 1e-9 && eps > 0;
  }
  EXPECT_GT(tight, 0u);  // the corners reach ε: the weight is no larger than it needs to be
}

TEST(ClassLayer, LimitsAndWeights) {
  const std::vector<double> a = {0.25, 0.75};
  // ε = 0: every member answered A.
  const auto zero = class_smooth({1.0, 0.0}, a, 0);
  EXPECT_EQ(zero.weight, 1.0);
  EXPECT_EQ(zero.scores, a);
  // λ = max_c 1 / (1 + A_c (e^ε − 1)): the smaller A_c decides.
  const double eps = 1.0;
  const double lambda = 1.0 / (1.0 + 0.25 * std::expm1(eps));
  EXPECT_NEAR(class_weight(a, eps), lambda, 1e-15);
  const auto one = class_smooth({0.9, 0.1}, a, eps);
  EXPECT_NEAR(one.scores[0], (1 - lambda) * 0.9 + lambda * 0.25, 1e-15);
  EXPECT_NEAR(one.scores[0] + one.scores[1], 1.0, 1e-15);  // a distribution stays one
  EXPECT_EQ(one.label, 1u);  // the reference (0.25, 0.75) outweighs M's 0.9 at λ ≈ 0.70
  // Large ε: f → M, no overflow.
  const auto big = class_smooth({0.9, 0.1}, a, 800);
  EXPECT_EQ(big.weight, 0.0);
  EXPECT_EQ(big.scores, (std::vector<double>{0.9, 0.1}));
  // A reference with a zero: λ = 1, every member answered A.
  EXPECT_EQ(class_weight({0.0, 1.0}, 5), 1.0);
  EXPECT_EQ(class_smooth({1.0, 0.0}, {0.0, 1.0}, 5).scores, (std::vector<double>{0.0, 1.0}));
  // The reference is the mean.
  const auto mean = class_reference({{0.2, 0.8}, {0.6, 0.4}});
  EXPECT_NEAR(mean[0], 0.4, 1e-15);
  EXPECT_NEAR(mean[1], 0.6, 1e-15);
}

TEST(ClassLayer, ScoresOutsideZeroOneAndBadEpsilonAreRefused) {
  try {
    class_smooth({1.5, 0.0}, {0.5, 0.5}, 1);
    FAIL() << "a score above 1 was smoothed";
  } catch (const core::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("needs scores in [0, 1] (probabilities)"));
  }
  EXPECT_THROW(class_reference({{-0.1, 1.0}}), core::Error);
  EXPECT_THROW(class_reference({{0.5, 0.5}, {1.0}}), core::Error);
  EXPECT_THROW(class_weight({0.5, 0.5}, -1), core::UsageError);
  EXPECT_THROW(class_smooth({0.5, 0.5}, {0.5, 0.5, 0.0}, 1), core::Error);
}

}  // namespace
}  // namespace assay::fairness
