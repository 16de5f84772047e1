// Descriptive statistics over samples. Empty inputs give NaN rather than throwing: a cell of a
// study with no runs is reported as missing, not as an error.
#pragma once

#include <span>

namespace assay::core {

double mean(std::span<const double> x);
// Sample variance and standard deviation (denominator n - 1); NaN when n < 2.
double variance(std::span<const double> x);
double standard_deviation(std::span<const double> x);
// Pearson's r as scipy.stats.pearsonr; NaN when lengths differ, n < 2 or a variance is 0.
double pearson(std::span<const double> x, std::span<const double> y);

}  // namespace assay::core
