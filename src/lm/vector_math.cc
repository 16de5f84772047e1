#include "lm/vector_math.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace assay::lm {

float fast_erf(float x) {
  // Rational minimax approximation (the one Eigen and XLA use for float erf).
  x = std::min(4.0f, std::max(-4.0f, x));
  const float x2 = x * x;
  float p = -2.72614225801306e-10f;
  p = p * x2 + 2.77068142495902e-08f;
  p = p * x2 + -2.10102402082508e-06f;
  p = p * x2 + -5.69250639462346e-05f;
  p = p * x2 + -7.34990630326855e-04f;
  p = p * x2 + -2.95459980854025e-03f;
  p = p * x2 + -1.60960333262415e-02f;
  p *= x;
  float q = -1.45660718464996e-05f;
  q = q * x2 + -2.13374055278905e-04f;
  q = q * x2 + -1.68282697438203e-03f;
  q = q * x2 + -7.37332916720468e-03f;
  q = q * x2 + -1.42647390514189e-02f;
  return p / q;
}

float fast_exp(float x) {
  // e^x = 2^n · e^r, n = round(x·log2 e), |r| ≤ ln2/2; e^r by a degree-6 Taylor polynomial
  // (error < 2e-7 relative there). Cody–Waite split of ln 2 keeps r accurate.
  x = std::min(88.0f, std::max(-87.0f, x));
  const float fn = static_cast<float>(static_cast<std::int32_t>(x * 1.44269504088896341f +
                                                                (x >= 0 ? 0.5f : -0.5f)));
  const float r = (x - fn * 0.693359375f) - fn * -2.12194440e-4f;
  float p = 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(fn) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

void gelu_inplace(float* x, std::size_t n) {
  constexpr float kInvSqrt2 = 0.70710678118654752440f;
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.5f * x[i] * (1.0f + fast_erf(x[i] * kInvSqrt2));
}

void softmax_inplace(float* v, std::size_t n) {
  float mx = v[0];
  for (std::size_t i = 1; i < n; ++i) mx = std::max(mx, v[i]);
  float sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = fast_exp(v[i] - mx);
    sum += v[i];
  }
  const float inv = 1.0f / sum;
  for (std::size_t i = 0; i < n; ++i) v[i] *= inv;
}

}  // namespace assay::lm
