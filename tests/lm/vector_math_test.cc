#include "lm/vector_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace assay::lm {
namespace {

TEST(VectorMath, ErfMatchesLibm) {
  double worst = 0;
  for (float x = -6.0f; x <= 6.0f; x += 1e-3f) {
    worst = std::max(worst, std::fabs(static_cast<double>(fast_erf(x)) - std::erf(static_cast<double>(x))));
  }
  EXPECT_LT(worst, 5e-7);  // a few float ulps
}

TEST(VectorMath, ExpMatchesLibm) {
  double worst = 0;
  for (float x = -87.0f; x <= 20.0f; x += 1e-3f) {
    const double want = std::exp(static_cast<double>(x));
    worst = std::max(worst, std::fabs(fast_exp(x) - want) / want);
  }
  EXPECT_LT(worst, 3e-7);
  EXPECT_EQ(fast_exp(-1000.0f), fast_exp(-87.0f));  // clamped, finite, tiny
  EXPECT_LT(fast_exp(-1000.0f), 1e-37f);
}

TEST(VectorMath, GeluAndSoftmax) {
  std::vector<float> x = {-3.0f, -0.5f, 0.0f, 0.7f, 5.0f};
  const std::vector<float> in = x;
  gelu_inplace(x.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double want = 0.5 * in[i] * (1 + std::erf(in[i] / std::sqrt(2.0)));
    EXPECT_NEAR(x[i], want, 1e-6);
  }
  std::vector<float> v = {1.0f, 2.0f, 3.0f, -50.0f};
  softmax_inplace(v.data(), v.size());
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0) + std::exp(-50.0);
  EXPECT_NEAR(v[0], std::exp(1.0) / z, 1e-7);
  EXPECT_NEAR(v[2], std::exp(3.0) / z, 1e-7);
  EXPECT_NEAR(v[0] + v[1] + v[2] + v[3], 1.0, 1e-6);
}

}  // namespace
}  // namespace assay::lm
