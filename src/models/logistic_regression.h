// LogisticRegression: L2-regularised logistic regression on sparse rows, fitted as
// scikit-learn's LogisticRegression with its defaults (penalty "l2", C = 1, lbfgs): it minimises
//   C · Σ_i loss_i + ½ ‖W‖²   (the intercepts are not penalised)
// with the binary logistic loss for two classes (one weight vector; the score of class 1 is
// σ(w·x + b)) and the multinomial (softmax) loss for more. The objective is strictly convex, so
// the optimum does not depend on the solver; L-BFGS is run to a tight gradient tolerance.
#pragma once

#include <cstddef>
#include <vector>

#include "models/count_vectorizer.h"
#include "models/lbfgs.h"

namespace assay::models {

struct LogisticRegressionOptions {
  double c = 1.0;
  LbfgsOptions solver;
};

class LogisticRegression {
 public:
  LogisticRegression() = default;
  // From stored parameters: `coef` is n_vectors × n_features row-major, with n_vectors = 1 for
  // two classes and n_classes otherwise. Throws core::Error on inconsistent sizes.
  LogisticRegression(std::size_t n_classes, std::size_t n_features, std::vector<double> coef,
                     std::vector<double> intercept);

  // Fits on rows with classes y[i] in [0, n_classes). Preconditions: rows.size() == y.size(),
  // n_classes >= 2, every feature index < n_features.
  static LogisticRegression fit(const std::vector<SparseRow>& rows, const std::vector<int>& y,
                                std::size_t n_classes, std::size_t n_features,
                                const LogisticRegressionOptions& options = {},
                                LbfgsResult* solver_result = nullptr);

  // Class probabilities of one row (size n_classes, sums to 1).
  std::vector<double> predict_proba(const SparseRow& row) const;

  std::size_t n_classes() const { return n_classes_; }
  std::size_t n_features() const { return n_features_; }
  std::size_t n_vectors() const { return n_classes_ == 2 ? 1 : n_classes_; }
  const std::vector<double>& coef() const { return coef_; }
  const std::vector<double>& intercept() const { return intercept_; }

 private:
  std::size_t n_classes_ = 0;
  std::size_t n_features_ = 0;
  std::vector<double> coef_;
  std::vector<double> intercept_;
};

}  // namespace assay::models
