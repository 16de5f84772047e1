#include "lm/vector_math.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace assay::lm {

void gelu_inplace(float* x, std::size_t n) {
  constexpr float kInvSqrt2 = 0.70710678118654752440f;
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + fast_erf(x[i] * kInvSqrt2));
}

void softmax_inplace(float* v, std::size_t n) {
  float mx = v[0];
#pragma omp simd reduction(max : mx)
  for (std::size_t i = 1; i < n; ++i) mx = std::max(mx, v[i]);
  float sum = 0;
#pragma omp simd reduction(+ : sum)
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = fast_exp(v[i] - mx);
    sum += v[i];
  }
  const float inv = 1.0f / sum;
#pragma omp simd
  for (std::size_t i = 0; i < n; ++i) v[i] *= inv;
}

void layer_norm_inplace(float* x, std::size_t rows, std::size_t h, const float* gamma,
                        const float* beta, double eps) {
  for (std::size_t r = 0; r < rows; ++r) {
    float* v = x + r * h;
    double mean = 0;
#pragma omp simd reduction(+ : mean)
    for (std::size_t i = 0; i < h; ++i) mean += v[i];
    mean /= static_cast<double>(h);
    double var = 0;
#pragma omp simd reduction(+ : var)
    for (std::size_t i = 0; i < h; ++i) {
      const double d = v[i] - mean;
      var += d * d;
    }
    var /= static_cast<double>(h);
    const float inv = static_cast<float>(1.0 / std::sqrt(var + eps));
    const float m = static_cast<float>(mean);
#pragma omp simd
    for (std::size_t i = 0; i < h; ++i) v[i] = (v[i] - m) * inv * gamma[i] + beta[i];
  }
}

}  // namespace assay::lm
