#include "core/summary_stats.h"

#include <cmath>
#include <limits>

namespace assay::core {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

double mean(std::span<const double> x) {
  if (x.empty()) return kNaN;
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

double variance(std::span<const double> x) {
  if (x.size() < 2) return kNaN;
  const double m = mean(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size() - 1);
}

double standard_deviation(std::span<const double> x) {
  return std::sqrt(variance(x));
}

double pearson(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size() || x.size() < 2) return kNaN;
  const double mx = mean(x), my = mean(y);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double dx = x[i] - mx, dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx == 0 || syy == 0) return kNaN;
  const double r = sxy / std::sqrt(sxx * syy);
  return std::fmax(-1.0, std::fmin(1.0, r));
}

}  // namespace assay::core
