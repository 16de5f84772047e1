#include "core/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/rng.h"
#include "core/summary_stats.h"

namespace assay::core {
namespace {

// The percentile interval of the statistic's resampled values (sorted here).
void percentile_interval(std::vector<double>& stats, double confidence, ConfidenceInterval& ci) {
  std::sort(stats.begin(), stats.end());
  const double alpha = (1 - confidence) / 2;
  ci.low = quantile_sorted(stats, alpha);
  ci.high = quantile_sorted(stats, 1 - alpha);
}

}  // namespace

double quantile_sorted(std::span<const double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double pos = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return values[lo] + (values[hi] - values[lo]) * frac;
}

ConfidenceInterval bootstrap_ci(std::span<const double> sample,
                                const std::function<double(std::span<const double>)>& statistic,
                                const BootstrapOptions& options) {
  ConfidenceInterval ci;
  ci.estimate = statistic(sample);
  if (sample.empty() || options.n_resamples == 0) {
    ci.low = ci.high = std::numeric_limits<double>::quiet_NaN();
    return ci;
  }
  Rng rng(options.seed, 0x626f6f74);  // "boot"
  std::vector<double> resample(sample.size());
  std::vector<double> stats;
  stats.reserve(options.n_resamples);
  for (std::size_t r = 0; r < options.n_resamples; ++r) {
    for (auto& v : resample) v = sample[rng.below(sample.size())];
    stats.push_back(statistic(resample));
  }
  percentile_interval(stats, options.confidence, ci);
  return ci;
}

ConfidenceInterval bootstrap_mean_difference_ci(std::span<const double> a,
                                                std::span<const double> b,
                                                const BootstrapOptions& options) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  ConfidenceInterval ci{kNaN, kNaN, kNaN};
  if (a.empty() || b.empty()) return ci;
  ci.estimate = mean(a) - mean(b);
  if (options.n_resamples == 0) return ci;
  Rng rng(options.seed, 0x64696666);  // "diff"
  std::vector<double> ra(a.size()), rb(b.size());
  std::vector<double> stats;
  stats.reserve(options.n_resamples);
  for (std::size_t r = 0; r < options.n_resamples; ++r) {
    for (auto& v : ra) v = a[rng.below(a.size())];
    for (auto& v : rb) v = b[rng.below(b.size())];
    stats.push_back(mean(ra) - mean(rb));
  }
  percentile_interval(stats, options.confidence, ci);
  return ci;
}

}  // namespace assay::core
