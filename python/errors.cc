#include "errors.h"

#include <exception>

#include "core/error.h"
#include "json_value.h"
#include "models/model_error.h"
#include "recsys/command_recommender.h"

namespace assay::python {
namespace py = pybind11;
namespace {

// The exception classes, created once by register_errors (the module lives as long as Python).
struct ErrorTypes {
  PyObject* error = nullptr;
  PyObject* parse = nullptr;
  PyObject* usage = nullptr;
  PyObject* io = nullptr;
  PyObject* missing = nullptr;
  PyObject* model = nullptr;
};
ErrorTypes& types() {
  static ErrorTypes t;
  return t;
}

PyObject* new_type(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  const std::string qualified = std::string("assay.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));  // the module keeps a reference
  return type;
}

// Raises `type` with the error's message and its location as attributes.
void raise(PyObject* type, const core::Error& e) {
  // A message may quote a child's bytes that are not UTF-8: kept as \xHH escapes.
  py::object instance = py::reinterpret_borrow<py::object>(type)(lenient_str(e.what()));
  const auto& where = e.location();
  instance.attr("path") = where ? py::object(lenient_str(where->path)) : py::object(py::none());
  instance.attr("line") =
      where && where->line > 0 ? py::object(py::int_(where->line)) : py::object(py::none());
  instance.attr("column") =
      where && where->column > 0 ? py::object(py::int_(where->column)) : py::object(py::none());
  instance.attr("detail") = lenient_str(e.detail());
  PyErr_SetObject(type, instance.ptr());
}

}  // namespace

void register_errors(py::module_& m) {
  ErrorTypes& t = types();
  py::handle exception(PyExc_Exception), value_error(PyExc_ValueError), os_error(PyExc_OSError);
  t.error = new_type(m, "Error", py::make_tuple(exception),
                     "An error of assay's library: bad input, a missing resource, a failing "
                     "model. str(e) is the message ('file:line: what was expected').");
  py::handle base(t.error);
  t.parse = new_type(m, "ParseError", py::make_tuple(base, value_error),
                     "Malformed content of a file or of data given from Python.");
  t.usage = new_type(m, "UsageError", py::make_tuple(base, value_error),
                     "A bad argument: an unknown option value, inconsistent arguments.");
  t.io = new_type(m, "IoError", py::make_tuple(base, os_error),
                  "A file that cannot be opened, read or written.");
  t.missing = new_type(m, "MissingResourceError", py::make_tuple(base),
                       "A resource assay needs (a Debian package's data, a model file) is not "
                       "installed.");
  t.model = new_type(m, "ModelError", py::make_tuple(base),
                     "The model under test failed or answered what was not expected.");
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    const ErrorTypes& k = types();
    try {
      std::rethrow_exception(p);
    } catch (const models::ModelError& e) {
      raise(k.model, e);
    } catch (const recsys::RecommenderFailure& e) {  // a program's or an object's training
      raise(k.model, e);
    } catch (const core::ParseError& e) {
      raise(k.parse, e);
    } catch (const core::UsageError& e) {
      raise(k.usage, e);
    } catch (const core::IoError& e) {
      raise(k.io, e);
    } catch (const core::MissingResourceError& e) {
      raise(k.missing, e);
    } catch (const core::Error& e) {
      raise(k.error, e);
    }
  });
}

}  // namespace assay::python
