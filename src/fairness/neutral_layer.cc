#include "fairness/neutral_layer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "models/model.h"

namespace assay::fairness {
namespace {

void check_outputs(const std::vector<std::vector<double>>& outputs) {
  if (outputs.empty()) throw core::Error("neutral layer: no outputs (need at least M(x0))");
  const std::size_t n = outputs[0].size();
  if (n == 0) throw core::Error("neutral layer: output 0 has no scores");
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].size() != n) {
      throw core::Error("neutral layer: output " + std::to_string(i) + " has " +
                        std::to_string(outputs[i].size()) + " scores, output 0 has " +
                        std::to_string(n));
    }
    for (std::size_t c = 0; c < n; ++c) {
      const double v = outputs[i][c];
      if (std::isfinite(v) && v >= 0) continue;
      throw core::Error("neutral layer: output " + std::to_string(i) + ", score " +
                        std::to_string(c) + " is " + (std::isnan(v) ? "NaN" : std::to_string(v)) +
                        "; the neutral layer needs finite non-negative scores (probabilities)");
    }
  }
}

void check_epsilon(double epsilon) {
  if (!std::isfinite(epsilon) || epsilon < 0) {
    throw core::UsageError("neutral layer: epsilon must be finite and >= 0, got " +
                           std::to_string(epsilon));
  }
}

// f(x_i) = (w M_i + Σ_{j≠i} M_j) / (w + k) computed as (M_i + Σ_{j≠i} M_j / w) / (1 + k / w),
// w ≥ 1 given as 1/w (so w = e^ε for large ε underflows to 1/w = 0 and f = M).
std::vector<std::vector<double>> mix(const std::vector<std::vector<double>>& outputs,
                                     double inv_w) {
  const std::size_t n = outputs[0].size();
  const double k = static_cast<double>(outputs.size() - 1);
  std::vector<double> total(n, 0.0);
  for (const auto& o : outputs)
    for (std::size_t c = 0; c < n; ++c) total[c] += o[c];
  std::vector<std::vector<double>> f(outputs.size(), std::vector<double>(n));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t c = 0; c < n; ++c) {
      // Σ_{j≠i} M_j from the total; clamped at 0 against rounding.
      const double rest = std::max(0.0, total[c] - outputs[i][c]);
      f[i][c] = (outputs[i][c] + inv_w * rest) / (1.0 + k * inv_w);
    }
  }
  return f;
}

// Scores the class layer takes: the checks above, and none above 1.
void check_probabilities(const std::vector<std::vector<double>>& outputs) {
  check_outputs(outputs);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t c = 0; c < outputs[i].size(); ++c) {
      if (outputs[i][c] <= 1) continue;
      throw core::Error("neutral layer: output " + std::to_string(i) + ", score " +
                        std::to_string(c) + " is " + std::to_string(outputs[i][c]) +
                        "; the neutral layer needs scores in [0, 1] (probabilities)");
    }
  }
}

}  // namespace

std::vector<double> class_reference(const std::vector<std::vector<double>>& outputs) {
  check_probabilities(outputs);
  std::vector<double> mean(outputs[0].size(), 0.0);
  for (const auto& o : outputs)
    for (std::size_t c = 0; c < o.size(); ++c) mean[c] += o[c];
  for (double& v : mean) v /= static_cast<double>(outputs.size());
  return mean;
}

double class_weight(const std::vector<double>& reference, double epsilon) {
  check_epsilon(epsilon);
  check_probabilities({reference});
  const double growth = std::expm1(epsilon);  // e^ε − 1, +∞ for very large ε
  double lambda = 0;
  for (double a : reference) {
    // a = 0: only λ = 1 bounds a member's score by e^ε times another's (both are then 0).
    const double need = a == 0 ? 1.0 : 1.0 / (1.0 + a * growth);
    lambda = std::max(lambda, need);
  }
  return std::min(lambda, 1.0);
}

ClassSmoothed class_smooth(const std::vector<double>& output, const std::vector<double>& reference,
                           double epsilon) {
  check_probabilities({output, reference});
  ClassSmoothed s;
  s.weight = class_weight(reference, epsilon);
  s.scores.resize(output.size());
  for (std::size_t c = 0; c < output.size(); ++c)
    s.scores[c] = (1.0 - s.weight) * output[c] + s.weight * reference[c];
  s.label = models::argmax(s.scores);
  return s;
}

SmoothedOutputs neutral_smooth(const std::vector<std::vector<double>>& outputs, double epsilon) {
  check_epsilon(epsilon);
  check_outputs(outputs);
  SmoothedOutputs s;
  s.scores = mix(outputs, std::exp(-epsilon));
  s.label = models::argmax(s.scores[0]);
  s.certificate = {epsilon, outputs.size() - 1};
  return s;
}

SmoothedOutputs reference_smooth(const std::vector<std::vector<double>>& outputs, double epsilon,
                                 bool centre) {
  check_epsilon(epsilon);
  check_outputs(outputs);
  SmoothedOutputs s;
  // Weight e^ε + 1 for x_i: 1/w = e^-ε / (1 + e^-ε).
  const double e = std::exp(-epsilon);
  s.scores = mix(outputs, e / (1.0 + e));
  s.label = models::argmax(s.scores[0]);
  // ln(1 + e^ε) = ε + ln(1 + e^-ε), stable for large ε.
  s.certificate = {epsilon + std::log1p(e), outputs.size() - 1};
  if (centre) {
    const double mid = 1.0 / static_cast<double>(outputs[0].size());
    for (auto& v : s.scores)
      for (double& x : v) x -= mid;
  }
  return s;
}

double realised_epsilon(const std::vector<std::vector<double>>& scores) {
  check_outputs(scores);
  double worst = 0;
  for (std::size_t c = 0; c < scores[0].size(); ++c) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (const auto& v : scores) {
      lo = std::min(lo, v[c]);
      hi = std::max(hi, v[c]);
    }
    if (hi == 0) continue;  // all zero: equal
    if (lo == 0) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::log(hi / lo));
  }
  return worst;
}

}  // namespace assay::fairness
