// L-BFGS minimisation of a smooth function (limited-memory quasi-Newton with a backtracking
// line search under the Armijo condition). Used to fit the built-in logistic regression, whose
// objective is smooth and strictly convex, so the minimiser found is the one scikit-learn's
// lbfgs solver approaches.
#pragma once

#include <functional>
#include <vector>

namespace assay::models {

struct LbfgsOptions {
  int max_iterations = 1000;
  int memory = 10;
  // Stops when the largest absolute gradient component is at most this.
  double gradient_tolerance = 1e-7;
};

struct LbfgsResult {
  double value = 0;
  int n_iterations = 0;
  bool converged = false;
};

// Evaluates the function at x, writes its gradient to `gradient` (already sized) and returns
// its value.
using ObjectiveFn =
    std::function<double(const std::vector<double>& x, std::vector<double>& gradient)>;

// Minimises `f` starting from (and overwriting) `x`.
LbfgsResult minimize_lbfgs(const ObjectiveFn& f, std::vector<double>& x,
                           const LbfgsOptions& options = {});

}  // namespace assay::models
