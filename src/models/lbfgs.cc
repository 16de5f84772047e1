#include "models/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace assay::models {
namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

}  // namespace

LbfgsResult minimize_lbfgs(const ObjectiveFn& f, std::vector<double>& x,
                           const LbfgsOptions& options) {
  const std::size_t n = x.size();
  std::vector<double> g(n), g_new(n), x_new(n), d(n);
  struct Pair {
    std::vector<double> s, y;
    double rho;
  };
  std::deque<Pair> history;
  LbfgsResult result;
  double value = f(x, g);
  for (int it = 0; it < options.max_iterations; ++it) {
    if (max_abs(g) <= options.gradient_tolerance) {
      result.converged = true;
      break;
    }
    // Two-loop recursion: d = -H g.
    d = g;
    std::vector<double> alpha(history.size());
    for (std::size_t k = history.size(); k-- > 0;) {
      alpha[k] = history[k].rho * dot(history[k].s, d);
      for (std::size_t i = 0; i < n; ++i) d[i] -= alpha[k] * history[k].y[i];
    }
    double gamma = 1.0;
    if (!history.empty()) {
      const auto& last = history.back();
      gamma = dot(last.s, last.y) / dot(last.y, last.y);
    } else {
      gamma = 1.0 / std::max(1.0, std::sqrt(dot(g, g)));
    }
    for (double& v : d) v *= gamma;
    for (std::size_t k = 0; k < history.size(); ++k) {
      const double beta = history[k].rho * dot(history[k].y, d);
      for (std::size_t i = 0; i < n; ++i) d[i] += history[k].s[i] * (alpha[k] - beta);
    }
    for (double& v : d) v = -v;
    double slope = dot(g, d);
    if (slope >= 0) {  // not a descent direction: restart from steepest descent
      history.clear();
      for (std::size_t i = 0; i < n; ++i) d[i] = -g[i];
      slope = -dot(g, g);
    }
    double step = 1.0;
    double value_new = 0;
    bool accepted = false;
    for (int ls = 0; ls < 60; ++ls) {
      for (std::size_t i = 0; i < n; ++i) x_new[i] = x[i] + step * d[i];
      value_new = f(x_new, g_new);
      if (std::isfinite(value_new) && value_new <= value + 1e-4 * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    result.n_iterations = it + 1;
    if (!accepted) break;  // no progress possible at machine precision
    Pair pair{std::vector<double>(n), std::vector<double>(n), 0};
    for (std::size_t i = 0; i < n; ++i) {
      pair.s[i] = x_new[i] - x[i];
      pair.y[i] = g_new[i] - g[i];
    }
    const double sy = dot(pair.s, pair.y);
    if (sy > 1e-12 * std::sqrt(dot(pair.s, pair.s) * dot(pair.y, pair.y))) {
      pair.rho = 1.0 / sy;
      history.push_back(std::move(pair));
      if (static_cast<int>(history.size()) > options.memory) history.pop_front();
    }
    x.swap(x_new);
    g.swap(g_new);
    const double previous = value;
    value = value_new;
    if (previous - value <= 1e-16 * std::abs(previous)) {  // no measurable progress left
      result.converged = max_abs(g) <= options.gradient_tolerance * 10;
      break;
    }
  }
  if (max_abs(g) <= options.gradient_tolerance) result.converged = true;
  result.value = value;
  return result;
}

}  // namespace assay::models
