#include "core/multiple_comparisons.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace assay::core {
namespace {

// Indices of the defined (non-NaN) p-values, in increasing order of p (ties by index).
std::vector<std::size_t> defined_in_order(std::span<const double> p) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!std::isnan(p[i])) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  return order;
}

}  // namespace

std::vector<double> holm_adjust(std::span<const double> p) {
  std::vector<double> out(p.size(), std::numeric_limits<double>::quiet_NaN());
  const auto order = defined_in_order(p);
  const double m = static_cast<double>(order.size());
  double running = 0;  // step-down: adjusted values never decrease along the order
  for (std::size_t k = 0; k < order.size(); ++k) {
    running = std::max(running, std::min(1.0, (m - static_cast<double>(k)) * p[order[k]]));
    out[order[k]] = running;
  }
  return out;
}

std::vector<double> benjamini_hochberg_adjust(std::span<const double> p) {
  std::vector<double> out(p.size(), std::numeric_limits<double>::quiet_NaN());
  const auto order = defined_in_order(p);
  const double m = static_cast<double>(order.size());
  double running = 1;  // step-up: from the largest p down, adjusted values never increase
  for (std::size_t k = order.size(); k-- > 0;) {
    running = std::min(running, m / static_cast<double>(k + 1) * p[order[k]]);
    out[order[k]] = running;
  }
  return out;
}

}  // namespace assay::core
