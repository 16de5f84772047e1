// Adjusted p-values for a family of tests, so that a report quoting many cells does not read
// chance as a finding: Holm's step-down correction (controls the family-wise error rate: the
// chance that any quoted finding is false) and Benjamini–Hochberg's step-up correction
// (controls the false discovery rate: the expected share of false findings among those
// quoted). Both as R's p.adjust(method = "holm" / "BH"): NaN entries are not tests (they stay
// NaN and do not count in the family), and adjusted values are capped at 1.
#pragma once

#include <span>
#include <vector>

namespace assay::core {

std::vector<double> holm_adjust(std::span<const double> p);
std::vector<double> benjamini_hochberg_adjust(std::span<const double> p);

}  // namespace assay::core
