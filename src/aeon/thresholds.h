// AEON's selection thresholds (paper RQ3): keep a test case when Sim ≥ 0.87 (sentiment
// analysis), 0.90 (NLI) or 0.91 (semantic equivalence) and Nat ≥ 0.21.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assay::aeon {

struct QualityThresholds {
  double sim = 0.87;
  double nat = 0.21;
};

// "sa", "nli" or "se"; throws core::UsageError otherwise.
QualityThresholds thresholds_for_task(std::string_view task);

struct QualityVerdict {
  bool keep = true;
  std::string reason;  // empty when kept, e.g. "SemEval 0.812 < 0.87; SynEval 0.150 < 0.21"
};

// A NaN score fails its threshold (it could not be computed).
QualityVerdict judge(double sim, double nat, const QualityThresholds& thresholds);

// The warning for a filter (`who`: "the aeon gate") that dropped more than 90 % of the
// `scored` cases (`unit`: "perturbations"; empty otherwise): such a filter is more likely set
// for another backend's scores than right about every case. `backend`: the scores' ("offline",
// "BERT"); `advice`: what to change, e.g. "set --gate-sim / --gate-nat (docs/fairness.md)".
// Ends without a newline.
std::string drop_warning(std::string_view who, std::size_t dropped, std::size_t scored,
                         std::string_view unit, const QualityThresholds& t,
                         std::string_view backend, std::string_view advice);

}  // namespace assay::aeon
