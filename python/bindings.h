// The submodules of `assay`, one source each (module.cc adds them).
#pragma once

#include <pybind11/pybind11.h>

namespace assay::python {

void add_fair(pybind11::module_& parent);       // fair_bindings.cc
void add_aeon(pybind11::module_& parent);       // aeon_bindings.cc
void add_rec(pybind11::module_& parent);        // rec_bindings.cc
void add_rec_campaign(pybind11::module_& rec);  // rec_campaign_bindings.cc (called by add_rec)
void add_models(pybind11::module_& parent);     // models_bindings.cc

}  // namespace assay::python
