#include "core/hypothesis_test.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/summary_stats.h"

namespace assay::core {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Continued fraction for I_x(a, b) (modified Lentz), valid for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-16;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < kEps) break;
  }
  return h;
}
}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return kNaN;
  if (x == 0) return 0;
  if (x == 1) return 1;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1) / (a + b + 2)) return front * beta_continued_fraction(a, b, x) / a;
  return 1 - front * beta_continued_fraction(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  const double x = df / (df + t * t);
  const double tail = 0.5 * incomplete_beta(df / 2, 0.5, x);  // P(T > |t|)
  return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double q, double df) {
  if (!(q > 0 && q < 1) || !(df > 0)) return kNaN;
  // Bisection on the cdf: widen the bracket until it holds q, then halve it to the last bit.
  double lo = -1, hi = 1;
  while (student_t_cdf(lo, df) > q) lo *= 2;
  while (student_t_cdf(hi, df) < q) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::fabs(lo)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, df) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

WelchResult welch_t_test(std::span<const double> a, std::span<const double> b) {
  WelchResult r{kNaN, kNaN, kNaN};
  if (a.size() < 2 || b.size() < 2) return r;
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double va = variance(a) / na, vb = variance(b) / nb;
  const double se2 = va + vb;
  if (!(se2 > 0)) return r;
  r.t = (mean(a) - mean(b)) / std::sqrt(se2);
  r.df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
  const double x = r.df / (r.df + r.t * r.t);
  r.p = incomplete_beta(r.df / 2, 0.5, x);  // = 2 * P(T > |t|)
  return r;
}

namespace {

// P(W <= w) and P(W >= w) for the sum W of `m` of the doubled mid-ranks `ranks2` (integers)
// drawn without replacement, every subset equally likely: counts of subsets by size and sum.
std::pair<double, double> rank_sum_tails(const std::vector<std::size_t>& ranks2, std::size_t m,
                                         std::size_t w) {
  std::size_t total = 0;
  for (const auto r : ranks2) total += r;
  // count[j * (total + 1) + s]: subsets of size j with doubled rank sum s.
  std::vector<double> count((m + 1) * (total + 1), 0.0);
  count[0] = 1;
  std::size_t seen = 0, reach = 0;
  for (const auto r : ranks2) {
    ++seen;
    reach += r;
    for (std::size_t j = std::min(m, seen); j >= 1; --j) {
      double* to = &count[j * (total + 1)];
      const double* from = &count[(j - 1) * (total + 1)];
      for (std::size_t s = reach; s >= r; --s) to[s] += from[s - r];
    }
  }
  double all = 0, low = 0, high = 0;
  const double* row = &count[m * (total + 1)];
  for (std::size_t s = 0; s <= total; ++s) {
    all += row[s];
    if (s <= w) low += row[s];
    if (s >= w) high += row[s];
  }
  return {low / all, high / all};
}

double normal_upper_tail(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

}  // namespace

double normal_quantile(double q) {
  if (!(q > 0 && q < 1)) return kNaN;
  // Bisection on the distribution function 1 - upper tail, to the last bit.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * std::max(1.0, std::fabs(lo)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (normal_upper_tail(-mid) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double rank_sum_min_p(std::size_t n_a, std::size_t n_b) {
  if (n_a == 0 || n_b == 0) return 1;
  const double na = static_cast<double>(n_a), nb = static_cast<double>(n_b);
  const double n = na + nb;
  if (n_a + n_b <= kExactRankSumMax) {
    // One assignment of C(n, n_a) at each extreme: 2 / C(n, n_a).
    double ways = 1;
    for (std::size_t k = 1; k <= n_a; ++k) {
      ways = ways * static_cast<double>(n_b + k) / static_cast<double>(k);
    }
    return std::min(1.0, 2 / ways);
  }
  const double sd = std::sqrt(na * nb * (n + 1) / 12);
  return std::min(1.0, 2 * normal_upper_tail((na * nb / 2 - 0.5) / sd));
}

RankSumResult rank_sum_test(std::span<const double> a, std::span<const double> b) {
  RankSumResult r{kNaN, kNaN, kNaN, false};
  if (a.empty() || b.empty()) return r;
  const std::size_t n = a.size() + b.size();
  std::vector<std::pair<double, bool>> pooled;  // (value, from a)
  pooled.reserve(n);
  for (const double v : a) pooled.emplace_back(v, true);
  for (const double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  // Doubled mid-ranks: a tie group at 1-based positions i..j has mid-rank (i + j) / 2.
  std::vector<std::size_t> ranks2(n);
  std::size_t w2 = 0;   // doubled rank sum of a
  double tie_term = 0;  // sum over tie groups of t^3 - t
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && pooled[j + 1].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i + 1);
    tie_term += t * t * t - t;
    for (std::size_t k = i; k <= j; ++k) {
      ranks2[k] = (i + 1) + (j + 1);
      if (pooled[k].second) w2 += ranks2[k];
    }
    i = j + 1;
  }
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double nd = static_cast<double>(n);
  r.u = static_cast<double>(w2) / 2 - na * (na + 1) / 2;
  r.superiority = r.u / (na * nb);
  if (tie_term == nd * nd * nd - nd) return r;  // every value equal: the test has no data
  if (n <= kExactRankSumMax) {
    const auto [low, high] = rank_sum_tails(ranks2, a.size(), w2);
    r.p = std::min(1.0, 2 * std::min(low, high));
    r.exact = true;
    return r;
  }
  const double u = std::max(r.u, na * nb - r.u);
  const double sd = std::sqrt(na * nb / 12 * ((nd + 1) - tie_term / (nd * (nd - 1))));
  r.p = std::min(1.0, 2 * normal_upper_tail((u - na * nb / 2 - 0.5) / sd));
  return r;
}

namespace {

// P(X <= k) for X ~ Binomial(n, 1/2).
double binomial_half_cdf(std::size_t k, std::size_t n) {
  if (k >= n) return 1;
  return incomplete_beta(static_cast<double>(n - k), static_cast<double>(k) + 1, 0.5);
}

// The q-quantile of Beta(a, b), by bisection on its distribution function.
double beta_quantile(double q, double a, double b) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = 0.5 * (lo + hi);
    (incomplete_beta(a, b, mid) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

SignTestResult sign_test(std::size_t k, std::size_t n, double confidence) {
  SignTestResult r;
  if (n == 0) {
    r.share = kNaN;
    return r;
  }
  const double nd = static_cast<double>(n), kd = static_cast<double>(k);
  r.share = kd / nd;
  // Symmetric at 1/2: twice the smaller tail.
  const double tail = std::min(binomial_half_cdf(k, n), binomial_half_cdf(n - k, n));
  r.p = std::min(1.0, 2 * tail);
  const double alpha = 1 - confidence;
  r.low = k == 0 ? 0.0 : beta_quantile(alpha / 2, kd, nd - kd + 1);
  r.high = k == n ? 1.0 : beta_quantile(1 - alpha / 2, kd + 1, nd - kd);
  return r;
}

}  // namespace assay::core
