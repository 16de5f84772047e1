#include "python_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.h"
#include "models/label_map.h"
#include "models/model_error.h"

namespace assay::python {
namespace py = pybind11;

PythonModel::PythonModel(py::object fn, std::vector<std::string> labels, std::string identity,
                         std::size_t batch, const CallHooks& hooks)
    : fn_(std::move(fn)),
      labels_(std::move(labels)),
      identity_(std::move(identity)),
      batch_(std::max<std::size_t>(1, batch)),
      hooks_(hooks) {}

PythonModel::~PythonModel() {
  py::gil_scoped_acquire acquire;
  fn_ = py::object();
}

std::vector<std::vector<double>> PythonModel::predict(const std::vector<std::string>& texts) {
  std::vector<std::vector<double>> scores;
  scores.reserve(texts.size());
  for (std::size_t at = 0; at < texts.size(); at += batch_) {
    hooks_.check();
    const std::size_t end = std::min(texts.size(), at + batch_);
    // On the calling thread, where Ctrl-C reaches a callable that waits (CallHooks::on_caller).
    hooks_.on_caller([&] { ask(texts, at, end, scores); });
  }
  return scores;
}

void PythonModel::ask(const std::vector<std::string>& texts, std::size_t at, std::size_t end,
                      std::vector<std::vector<double>>& scores) {
  {
    py::gil_scoped_acquire acquire;
    py::list batch;
    for (std::size_t i = at; i < end; ++i) batch.append(py::str(texts[i]));
    py::object answer;
    {
      const InCallable in(hooks_);
      answer = fn_(batch);
    }
    if (py::hasattr(answer, "tolist")) answer = answer.attr("tolist")();  // a NumPy array
    const std::string what = identity_ + ": ";
    if (!py::isinstance<py::sequence>(answer) || py::isinstance<py::str>(answer))
      throw models::ModelError(what + "expected a list of score rows (one per text), got " +
                               std::string(py::str(py::type::of(answer).attr("__name__"))));
    const auto rows = answer.cast<py::sequence>();
    if (rows.size() != end - at)
      throw models::ModelError(what + "expected " + std::to_string(end - at) +
                               " rows of scores (one per text), got " +
                               std::to_string(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
      py::object row = rows[r];
      if (!py::isinstance<py::sequence>(row) || py::isinstance<py::str>(row))
        throw models::ModelError(what + "row " + std::to_string(r) + " is not a list of scores",
                                 at + r);
      const auto values = row.cast<py::sequence>();
      if (values.size() != labels_.size())
        throw models::ModelError(what + "row " + std::to_string(r) + " has " +
                                     std::to_string(values.size()) + " scores, expected " +
                                     std::to_string(labels_.size()) + " (one per label)",
                                 at + r);
      std::vector<double> v;
      v.reserve(values.size());
      for (std::size_t c = 0; c < values.size(); ++c) {
        py::object x = values[c];
        double d = 0;
        try {
          d = x.cast<double>();
        } catch (const py::cast_error&) {
          throw models::ModelError(what + "row " + std::to_string(r) + ", score " +
                                       std::to_string(c) + " is not a number",
                                   at + r);
        }
        if (!std::isfinite(d))
          throw models::ModelError(
              what + "row " + std::to_string(r) + ", score " + std::to_string(c) + " is not finite",
              at + r);
        v.push_back(d);
      }
      scores.push_back(std::move(v));
    }
  }
}

std::vector<std::string> model_labels(const py::object& fn, const py::object& labels) {
  std::vector<std::string> out;
  py::object source = labels;
  if (source.is_none() && py::hasattr(fn, "__self__") &&
      py::hasattr(fn.attr("__self__"), "classes_"))
    source = fn.attr("__self__").attr("classes_");
  if (source.is_none())
    throw core::UsageError(
        "labels: the model's labels, in the order of its scores, are needed (give "
        "labels=[...], or a bound method of an estimator with classes_)");
  if (py::isinstance<py::str>(source) || py::isinstance<py::bytes>(source))
    throw core::UsageError("labels: expected a list of label names, got the string '" +
                           py::str(source).cast<std::string>() + "'");
  for (const py::handle label : source) out.push_back(py::str(label));
  if (out.empty()) throw core::UsageError("labels: the model needs at least one label");
  if (const std::string twice = models::repeated_label(out); !twice.empty())
    throw core::UsageError("labels: '" + twice + "' is named twice");
  return out;
}

std::string model_identity(const py::object& fn, const py::object& model_id) {
  if (!model_id.is_none()) return "python:" + model_id.cast<std::string>();
  if (py::hasattr(fn, "__qualname__"))
    return "python:" + fn.attr("__qualname__").cast<std::string>();
  return "python:" + py::str(py::type::of(fn).attr("__qualname__")).cast<std::string>();
}

}  // namespace assay::python
