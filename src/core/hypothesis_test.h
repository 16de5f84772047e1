// Student's t distribution and Welch's unequal-variance t-test (as scipy.stats.ttest_ind with
// equal_var=False, two-sided); the exact sign test (as scipy.stats.binomtest with p = 1/2).
#pragma once

#include <cstddef>
#include <span>

namespace assay::core {

// Regularised incomplete beta function I_x(a, b), a, b > 0, x in [0, 1].
double incomplete_beta(double a, double b, double x);
// P(T <= t) for Student's t with df > 0 degrees of freedom (df may be fractional).
double student_t_cdf(double t, double df);
// The q-quantile of Student's t with df > 0 degrees of freedom (scipy.stats.t.ppf), q in (0, 1);
// NaN otherwise.
double student_t_quantile(double q, double df);

struct WelchResult {
  double t = 0;   // statistic, (mean(a) - mean(b)) / se
  double df = 0;  // Welch-Satterthwaite degrees of freedom
  double p = 1;   // two-sided p-value
};

// NaN fields when a sample has fewer than 2 values or both variances are 0 (scipy: nan).
WelchResult welch_t_test(std::span<const double> a, std::span<const double> b);

struct SignTestResult {
  double p = 1;              // two-sided p-value
  double share = 0;          // k / n (NaN for n = 0)
  double low = 0, high = 1;  // Clopper–Pearson interval of the share
};

// The exact two-sided sign test of `k` successes in `n` trials against a share of 1/2 (as
// scipy.stats.binomtest(k, n).pvalue), with the Clopper–Pearson ("exact") interval of the share
// at `confidence` in (0, 1) (binomtest(...).proportion_ci()). n = 0: p = 1, interval [0, 1].
// Precondition: k <= n.
SignTestResult sign_test(std::size_t k, std::size_t n, double confidence = 0.95);

}  // namespace assay::core
