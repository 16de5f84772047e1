#include "perturbation_kwargs.h"

#include <pybind11/stl.h>

#include <cmath>
#include <string_view>
#include <variant>
#include <vector>

#include "core/error.h"
#include "core/overloaded.h"
#include "fairness/perturbator_option_table.h"

namespace assay::python {
namespace py = pybind11;

namespace {

double finite(const py::handle v, std::string_view name, double min, double max) {
  const double x = v.cast<double>();
  if (!std::isfinite(x) || x < min || x > max)
    throw core::UsageError(std::string(name) + ": expected a number in [" + std::to_string(min) +
                           ", " + std::to_string(max) + "], got " + std::string(py::str(v)));
  return x;
}

template <class T>
T count(const py::handle v, std::string_view name, double max) {
  const auto x = v.cast<long long>();
  if (x < 0) throw core::UsageError(std::string(name) + ": expected a count >= 0");
  if (static_cast<double>(x) > max)
    throw core::UsageError(std::string(name) + ": expected at most " +
                           std::to_string(static_cast<unsigned long long>(max)));
  return static_cast<T>(x);
}

// The option's default as a Python literal (a default that depends on the installation, as
// <its name>).
std::string python_default(const fairness::PerturbatorOption& o) {
  if (!o.default_name.empty()) return "<" + std::string(o.default_name) + ">";
  const std::string d = fairness::default_text(o);
  if (std::holds_alternative<fairness::FlagField>(o.field)) return d == "true" ? "True" : "False";
  if (std::holds_alternative<fairness::ListField>(o.field)) return d.empty() ? "[]" : "[...]";
  if (std::holds_alternative<fairness::TextField>(o.field)) return "'" + d + "'";
  return d;
}

// Sets the option's field of `c` from `value`.
void set(const fairness::PerturbatorOption& o, const py::handle value,
         fairness::PerturbatorConfig& c) {
  const std::string_view k = o.keyword;
  std::visit(core::Overloaded{
                 [&](fairness::TextField f) {
                   f(c) = o.none_is_word && value.is_none() ? "none" : value.cast<std::string>();
                 },
                 [&](fairness::CountField f) { f(c) = count<std::size_t>(value, k, o.max); },
                 [&](fairness::SeedField f) { f(c) = count<std::uint64_t>(value, k, o.max); },
                 [&](fairness::RealField f) { f(c) = finite(value, k, o.min, o.max); },
                 [&](fairness::FlagField f) { f(c) = value.cast<bool>() != o.negated; },
                 [&](fairness::ListField f) { f(c) = value.cast<std::vector<std::string>>(); },
             },
             o.field);
}

}  // namespace

const std::string& perturbation_keywords() {
  static const std::string keywords = [] {
    std::string s;
    for (const auto& o : fairness::perturbator_option_table()) {
      if (o.keyword == "attribute") continue;  // a parameter of its own
      s += (s.empty() ? "" : ", ") + std::string(o.keyword) + "=" + python_default(o);
    }
    return s;
  }();
  return keywords;
}

fairness::PerturbatorConfig perturbator_config(const std::string& attribute,
                                               const py::kwargs& kwargs) {
  fairness::PerturbatorConfig c;
  c.attribute = attribute;
  for (const auto& [key, value] : kwargs) {
    const std::string k = py::str(key);
    const auto* option = fairness::find_perturbator_keyword(k);
    if (!option || option->keyword == "attribute")
      throw py::type_error("unexpected keyword argument '" + k + "' (the perturbator's are " +
                           perturbation_keywords() + ")");
    try {
      set(*option, value, c);
    } catch (const py::cast_error&) {
      throw py::type_error(k + ": expected a value of another type, got " +
                           std::string(py::str(py::type::of(value).attr("__name__"))));
    }
  }
  fairness::check_perturbator_config(c);
  return c;
}

}  // namespace assay::python
