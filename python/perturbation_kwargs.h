// The perturbator's keyword arguments — the options of `assay fair perturb` and `fair test`
// under Python names (--no-strict is strict=False, --kg is kg=..., ...), read with the library's
// table of them (fairness/perturbator_option_table.h: the same defaults, ranges and checks) into
// a fairness::PerturbatorConfig.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "fairness/perturbator_config.h"

namespace assay::python {

// Throws TypeError for an unknown keyword, core::UsageError for a bad value (a threshold out
// of range, a vectors setting without vectors, analogy and active both off).
fairness::PerturbatorConfig perturbator_config(const std::string& attribute,
                                               const pybind11::kwargs& kwargs);

// The keywords perturbator_config accepts with their defaults, for the docstrings
// ("kg='wordnet', vectors='', ...": fairness::perturbator_option_table()).
const std::string& perturbation_keywords();

}  // namespace assay::python
