// Student's t distribution and Welch's unequal-variance t-test (as scipy.stats.ttest_ind with
// equal_var=False, two-sided); the Wilcoxon–Mann–Whitney rank-sum test (exact permutation
// distribution for small samples, ties kept; the normal approximation otherwise); the exact
// sign test (as scipy.stats.binomtest with p = 1/2).
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

// Samples with at most this many values together get the exact permutation p of the rank-sum
// test; larger ones its normal approximation.
constexpr std::size_t kExactRankSumMax = 40;

// The q-quantile of the standard normal distribution (scipy.stats.norm.ppf), q in (0, 1); NaN
// otherwise.
double normal_quantile(double q);

// The smallest two-sided p that rank_sum_test can give for samples of these sizes (every value
// of one sample above every value of the other, no ties): the design can detect nothing at a
// level at or below it. 1 for an empty sample.
double rank_sum_min_p(std::size_t n_a, std::size_t n_b);

struct RankSumResult {
  double u = 0;            // Mann–Whitney U of a: pairs (x of a, y of b) with x > y, ties 1/2
  double superiority = 0;  // U / (|a| |b|) = P(X > Y) + P(X = Y) / 2; NaN for an empty sample
  double p = 1;            // two-sided; NaN for an empty sample or when every value is equal
  bool exact = false;      // p from the exact permutation distribution
};

// The two-sided Wilcoxon–Mann–Whitney test of `a` against `b`, valid for bounded, tied,
// zero-inflated values: no assumption on their distribution beyond exchangeability under the
// null. When |a| + |b| <= kExactRankSumMax, p is exact: the rank sum of `a` (mid-ranks for
// ties) against its distribution over all C(|a| + |b|, |a|) reassignments of the pooled values,
// twice the smaller tail, capped at 1 (scipy.stats.permutation_test with
// permutation_type="independent" and n_resamples=inf on that statistic). Otherwise the normal
// approximation with tie and continuity corrections (scipy.stats.mannwhitneyu with
// method="asymptotic").
RankSumResult rank_sum_test(std::span<const double> a, std::span<const double> b);

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
