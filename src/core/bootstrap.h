// Percentile bootstrap confidence intervals, resampling with a seeded stream so the interval
// is reproducible.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

namespace assay::core {

struct ConfidenceInterval {
  double estimate = 0;  // statistic on the original sample
  double low = 0;
  double high = 0;
};

struct BootstrapOptions {
  std::size_t n_resamples = 2000;
  double confidence = 0.95;
  std::uint64_t seed = 0;
};

// Statistic over one sample (e.g. mean).
ConfidenceInterval bootstrap_ci(std::span<const double> sample,
                                const std::function<double(std::span<const double>)>& statistic,
                                const BootstrapOptions& options = {});

// The difference of means, mean(a) - mean(b), of two independent samples, each resampled on its
// own (as scipy.stats.bootstrap((a, b), ..., method="percentile")). NaN bounds when a sample is
// empty.
ConfidenceInterval bootstrap_mean_difference_ci(std::span<const double> a,
                                                std::span<const double> b,
                                                const BootstrapOptions& options = {});

// The q-quantile of sorted `values` with linear interpolation (numpy's default, "linear").
double quantile_sorted(std::span<const double> values, double q);

}  // namespace assay::core
