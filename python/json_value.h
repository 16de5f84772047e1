// Records as Python values: a JSON value of the library (the same record the command line
// writes as a JSON line) as dicts, lists, str, int, float, bool and None, keys in order.
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>
#include <string_view>

namespace assay::python {

// `text` as a Python str: bytes that are not UTF-8 (a child's or a model's output, quoted in a
// record or an error message) are kept as \xHH escapes instead of raising UnicodeDecodeError.
pybind11::str lenient_str(std::string_view text);

pybind11::object to_python(const nlohmann::ordered_json& j);
pybind11::object to_python(const nlohmann::json& j);

}  // namespace assay::python
