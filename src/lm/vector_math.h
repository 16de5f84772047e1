// Element-wise kernels of the BERT encoder written so the compiler vectorises them (branch-free
// polynomial/rational approximations, no libm calls in the loops): erf-GELU, softmax,
// LayerNorm. vector_math.cc is compiled with -fopenmp-simd (the `omp simd` reductions) and
// -fno-trapping-math (without it GCC will not if-convert the clamps, and nothing vectorises);
// both are portable SSE2 code generation, not -march=native.
// Accuracy (checked in tests/lm/vector_math_test.cc against libm): erf within 5e-7 absolute (a few float ulps),
// exp within 3 ulp-ish relative (2e-7) on the softmax's range. glibc's scalar erff/expf cost
// ~10 ns each, which for BERT-base's 4.7 M GELUs per 128 tokens was a third of the budget.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace assay::lm {

// erf(x) as a rational function on [-4, 4] (|erf| rounds to 1 in float beyond). Inline so
// the loops below inline and vectorise it.
inline float fast_erf(float x) {
  // Rational minimax approximation (the one Eigen and XLA use for float erf).
  x = x < -4.0f ? -4.0f : x;
  x = x > 4.0f ? 4.0f : x;
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

// e^x for x ≤ 0 down to −87 (clamped below), the range softmax needs after subtracting the
// maximum; also correct for moderate positive x.
inline float fast_exp(float x) {
  // e^x = 2^n · e^r, n = round(x·log2 e), |r| ≤ ln2/2; e^r by a degree-6 Taylor polynomial
  // (error < 2e-7 relative there). Cody–Waite split of ln 2 keeps r accurate.
  x = x < -87.0f ? -87.0f : x;
  x = x > 88.0f ? 88.0f : x;
  // floor(x·log2 e + 0.5) via truncation of a shifted positive value (x ≥ −87 so +128 keeps
  // it positive): no rounding-mode call, no branch.
  const float fn =
      static_cast<float>(static_cast<std::int32_t>(x * 1.44269504088896341f + 128.5f) - 128);
  const float r = (x - fn * 0.693359375f) - fn * -2.12194440e-4f;
  float p = 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(fn) + 127) << 23;
  const float scale = std::bit_cast<float>(bits);
  return p * scale;
}


// x ← 0.5·x·(1 + erf(x/√2)) (exact-erf GELU, as BERT uses, not the tanh approximation).
void gelu_inplace(float* x, std::size_t n);
// v ← softmax(v).
void softmax_inplace(float* v, std::size_t n);
// Each of `rows` rows of length h ← (x − mean)/√(var + eps)·γ + β; statistics in double.
void layer_norm_inplace(float* x, std::size_t rows, std::size_t h, const float* gamma,
                        const float* beta, double eps);

}  // namespace assay::lm
