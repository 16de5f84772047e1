// Element-wise kernels of the BERT encoder written so the compiler vectorises them (branch-free
// polynomial/rational approximations, no libm calls in the loops): erf-GELU, softmax, tanh.
// Accuracy (checked in tests/lm/vector_math_test.cc against libm): erf within 5e-7 absolute (a few float ulps),
// exp within 3 ulp-ish relative (2e-7) on the softmax's range. glibc's scalar erff/expf cost
// ~10 ns each, which for BERT-base's 4.7 M GELUs per 128 tokens was a third of the budget.
#pragma once

#include <cstddef>

namespace assay::lm {

// erf(x) as a rational function on [-4, 4] (|erf| rounds to 1 in float beyond).
float fast_erf(float x);
// e^x for x ≤ 0 down to −87 (flushes to 0 below), the range softmax needs after subtracting
// the maximum; also correct for moderate positive x.
float fast_exp(float x);

// x ← 0.5·x·(1 + erf(x/√2)) (exact-erf GELU, as BERT uses, not the tanh approximation).
void gelu_inplace(float* x, std::size_t n);
// v ← softmax(v).
void softmax_inplace(float* v, std::size_t n);

}  // namespace assay::lm
