// Student's t distribution and Welch's unequal-variance t-test (as scipy.stats.ttest_ind with
// equal_var=False, two-sided).
#pragma once

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

}  // namespace assay::core
