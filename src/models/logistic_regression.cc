#include "models/logistic_regression.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "core/error.h"

namespace assay::models {
namespace {

// log(1 + e^t) without overflow.
double log1p_exp(double t) {
  return t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t));
}

double sigmoid(double t) {
  if (t >= 0) return 1.0 / (1.0 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1.0 + e);
}

// In-place softmax; returns log-sum-exp of the input.
double softmax(std::vector<double>& z) {
  const double m = *std::max_element(z.begin(), z.end());
  double sum = 0;
  for (double& v : z) {
    v = std::exp(v - m);
    sum += v;
  }
  for (double& v : z) v /= sum;
  return m + std::log(sum);
}

}  // namespace

LogisticRegression::LogisticRegression(std::size_t n_classes, std::size_t n_features,
                                       std::vector<double> coef, std::vector<double> intercept)
    : n_classes_(n_classes),
      n_features_(n_features),
      coef_(std::move(coef)),
      intercept_(std::move(intercept)) {
  if (n_classes_ < 2) throw core::Error("a classifier needs at least 2 classes");
  if (coef_.size() != n_vectors() * n_features_) {
    throw core::Error("expected " + std::to_string(n_vectors() * n_features_) +
                      " coefficients, got " + std::to_string(coef_.size()));
  }
  if (intercept_.size() != n_vectors()) {
    throw core::Error("expected " + std::to_string(n_vectors()) + " intercepts, got " +
                      std::to_string(intercept_.size()));
  }
}

LogisticRegression LogisticRegression::fit(const std::vector<SparseRow>& rows,
                                           const std::vector<int>& y, std::size_t n_classes,
                                           std::size_t n_features,
                                           const LogisticRegressionOptions& options,
                                           LbfgsResult* solver_result) {
  ASSAY_CHECK(rows.size() == y.size() && n_classes >= 2 && !rows.empty());
  const std::size_t n_vectors = n_classes == 2 ? 1 : n_classes;
  const std::size_t n_coef = n_vectors * n_features;
  const double n = static_cast<double>(rows.size());
  // Scaled by 1/(C n): same minimiser, gradients of order one.
  const double l2 = 1.0 / (options.c * n);
  std::vector<double> z(n_vectors);
  auto objective = [&](const std::vector<double>& params, std::vector<double>& grad) {
    std::fill(grad.begin(), grad.end(), 0.0);
    double loss = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::size_t k = 0; k < n_vectors; ++k) {
        const double* w = params.data() + k * n_features;
        double s = params[n_coef + k];
        for (const auto& [j, v] : rows[i]) s += w[j] * v;
        z[k] = s;
      }
      if (n_vectors == 1) {
        const double t = z[0];
        loss += y[i] == 1 ? log1p_exp(-t) : log1p_exp(t);
        z[0] = sigmoid(t) - (y[i] == 1 ? 1.0 : 0.0);
      } else {
        const auto label = static_cast<std::size_t>(y[i]);
        const double z_label = z[label];
        loss += softmax(z) - z_label;  // -log softmax(z)[label]
        z[label] -= 1.0;
      }
      for (std::size_t k = 0; k < n_vectors; ++k) {
        const double gk = z[k] / n;
        if (gk == 0) continue;
        double* gw = grad.data() + k * n_features;
        for (const auto& [j, v] : rows[i]) gw[j] += gk * v;
        grad[n_coef + k] += gk;
      }
    }
    loss /= n;
    double penalty = 0;
    for (std::size_t j = 0; j < n_coef; ++j) {
      penalty += params[j] * params[j];
      grad[j] += l2 * params[j];
    }
    return loss + 0.5 * l2 * penalty;
  };
  std::vector<double> params(n_coef + n_vectors, 0.0);
  const auto result = minimize_lbfgs(objective, params, options.solver);
  if (solver_result) *solver_result = result;
  std::vector<double> intercept(params.begin() + static_cast<std::ptrdiff_t>(n_coef), params.end());
  params.resize(n_coef);
  return LogisticRegression(n_classes, n_features, std::move(params), std::move(intercept));
}

std::vector<double> LogisticRegression::predict_proba(const SparseRow& row) const {
  const std::size_t n_vectors = this->n_vectors();
  std::vector<double> z(n_vectors);
  for (std::size_t k = 0; k < n_vectors; ++k) {
    const double* w = coef_.data() + k * n_features_;
    double s = intercept_[k];
    for (const auto& [j, v] : row) s += w[j] * v;
    z[k] = s;
  }
  if (n_vectors == 1) {
    const double p = sigmoid(z[0]);
    return {1.0 - p, p};
  }
  softmax(z);
  return z;
}

}  // namespace assay::models
