// The perturbator's keyword arguments — the options of `assay fair perturb` and `fair test`
// under Python names (--no-strict is strict=False, --kg is kg=..., ...) with the same defaults
// and checks — read into a fairness::PerturbatorConfig.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "fairness/perturbator_config.h"

namespace assay::python {

// Throws TypeError for an unknown keyword, core::UsageError for a bad value (a threshold out
// of range, a vectors setting without vectors, analogy and active both off).
fairness::PerturbatorConfig perturbator_config(const std::string& attribute,
                                               const pybind11::kwargs& kwargs);

// The keywords perturbator_config accepts, for the docstrings.
extern const char* const kPerturbationKeywords;

}  // namespace assay::python
