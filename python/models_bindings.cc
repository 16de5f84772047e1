// assay.models: the library's model adapters (lr:, cmd:, http:, bert:) opened from Python by
// the spec `assay model predict --model` takes, so a model the command line tests can be
// called, and tested, from Python too.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "interrupt.h"
#include "models/model.h"
#include "models/model_spec.h"
#include "thread_count.h"

namespace assay::python {
namespace py = pybind11;
namespace {

// model.predict(texts) without the GIL, cancelled (Model::cancel) when a signal arrives.
std::vector<std::vector<double>> interruptible_predict(models::Model& model,
                                                       const std::vector<std::string>& texts) {
  CallHooks hooks{py::none()};
  hooks.on_stop([&model] { model.cancel(); });
  return run_released(hooks, [&] { return model.predict(texts); });
}

}  // namespace

void add_models(py::module_& parent) {
  auto m = parent.def_submodule("models", "The library's model adapters (docs/models.md)");
  py::class_<models::Model>(m, "Model",
                            "A model under test: predict(texts) -> one score row per text.")
      .def("predict", &interruptible_predict, py::arg("texts"),
           "Scores of each text, one per label (a list of lists). Ctrl-C stops it: a cmd: "
           "child or an http: request it waits on is cancelled and KeyboardInterrupt raised.")
      .def("__call__", &interruptible_predict)
      .def_property_readonly("labels", &models::Model::labels, "The labels, in score order.")
      .def_property_readonly("identity", &models::Model::identity,
                             "The adapter, its configuration and its files' content hashes.");
  m.def(
      "open",
      [](const std::string& spec, const std::vector<std::string>& labels, double timeout) {
        check_finite(timeout, "timeout", 0, true);
        models::ModelOptions o;
        o.labels = labels;
        o.timeout_seconds = timeout;
        return models::open_model(spec, o);
      },
      py::arg("spec"), py::kw_only(), py::arg("labels") = std::vector<std::string>{},
      py::arg("timeout") = 60.0,
      "open(spec, *, labels=[], timeout=60.0) -> Model\n\n"
      "The model `spec` names, as `assay model predict --model`: lr:FILE (the built-in "
      "logistic regression), cmd:PROGRAM ARGS (a child speaking JSON lines), http(s)://URL, "
      "bert:DIR. labels: the label names (required for a cmd: child that does not send "
      "them).");
}

}  // namespace assay::python
