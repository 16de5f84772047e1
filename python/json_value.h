// Records as Python values: a JSON value of the library (the same record the command line
// writes as a JSON line) as dicts, lists, str, int, float, bool and None, keys in order.
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace assay::python {

pybind11::object to_python(const nlohmann::ordered_json& j);
pybind11::object to_python(const nlohmann::json& j);

}  // namespace assay::python
