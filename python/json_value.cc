#include "json_value.h"

namespace assay::python {
namespace py = pybind11;

py::str lenient_str(std::string_view text) {
  PyObject* s =
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "backslashreplace");
  if (s == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

namespace {

template <class Json>
py::object convert(const Json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[lenient_str(it.key())] = convert(it.value());
      return d;
    }
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& v : j) l.append(convert(v));
      return l;
    }
    case nlohmann::json::value_t::string:
      return lenient_str(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.template get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.template get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.template get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.template get<double>());
    default:
      return py::none();
  }
}

}  // namespace

py::object to_python(const nlohmann::ordered_json& j) {
  return convert(j);
}
py::object to_python(const nlohmann::json& j) {
  return convert(j);
}

}  // namespace assay::python
