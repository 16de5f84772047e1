#include "models/lbfgs.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using assay::models::minimize_lbfgs;

TEST(Lbfgs, MinimisesAnIllConditionedQuadratic) {
  // f(x) = Σ a_i (x_i - i)^2 with a_i from 1 to 1000.
  const std::size_t n = 20;
  auto f = [&](const std::vector<double>& x, std::vector<double>& g) {
    double v = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double a = std::pow(1000.0, static_cast<double>(i) / (n - 1));
      const double d = x[i] - static_cast<double>(i);
      v += a * d * d;
      g[i] = 2 * a * d;
    }
    return v;
  };
  std::vector<double> x(n, 0.0);
  const auto r = minimize_lbfgs(f, x);
  EXPECT_TRUE(r.converged);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(x[i], static_cast<double>(i), 1e-6);
}

TEST(Lbfgs, MinimisesRosenbrock) {
  auto f = [](const std::vector<double>& x, std::vector<double>& g) {
    const double a = 1 - x[0], b = x[1] - x[0] * x[0];
    g[0] = -2 * a - 400 * x[0] * b;
    g[1] = 200 * b;
    return a * a + 100 * b * b;
  };
  std::vector<double> x{-1.2, 1.0};
  const auto r = minimize_lbfgs(f, x);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(x[0], 1.0, 1e-5);
  EXPECT_NEAR(x[1], 1.0, 1e-5);
}

}  // namespace
