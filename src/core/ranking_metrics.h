// Scores as classifiers of a binary label, with scikit-learn's semantics (1.2): equal scores
// form one threshold, so tied cases are counted together.
#pragma once

#include <span>

namespace assay::core {

// sklearn.metrics.average_precision_score: sum over distinct thresholds (descending) of
// (R_n - R_{n-1}) * P_n. NaN when there is no positive label.
double average_precision(std::span<const double> scores, std::span<const bool> labels);

// sklearn.metrics.roc_auc_score: trapezoidal area under the ROC curve (ties count one half).
// NaN when only one class is present.
double roc_auc(std::span<const double> scores, std::span<const bool> labels);

}  // namespace assay::core
