#include "core/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/rng.h"

namespace assay::core {

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
  std::sort(stats.begin(), stats.end());
  const double alpha = (1 - options.confidence) / 2;
  ci.low = quantile_sorted(stats, alpha);
  ci.high = quantile_sorted(stats, 1 - alpha);
  return ci;
}

}  // namespace assay::core
