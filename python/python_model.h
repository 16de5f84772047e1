// A Python callable as the model under test: model(texts: list[str]) -> scores, one row per
// text with one finite score per label (a list of lists or a 2-D NumPy array, e.g. a
// scikit-learn pipeline's predict_proba). Asked `batch` texts at a time, on the thread that
// called into assay (CallHooks::on_caller) with the GIL taken for each call; the call hooks
// (interrupt.h) are checked before each batch.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <vector>

#include "interrupt.h"
#include "models/model.h"

namespace assay::python {

class PythonModel : public models::Model {
 public:
  PythonModel(pybind11::object fn, std::vector<std::string> labels, std::string identity,
              std::size_t batch, const CallHooks& hooks);
  ~PythonModel() override;

  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  const std::vector<std::string>& labels() const override { return labels_; }
  std::string identity() const override { return identity_; }

 private:
  // Asks for texts[at, end) and appends their score rows (GIL taken here).
  void ask(const std::vector<std::string>& texts, std::size_t at, std::size_t end,
           std::vector<std::vector<double>>& scores);

  pybind11::object fn_;
  std::vector<std::string> labels_;
  std::string identity_;
  std::size_t batch_;
  const CallHooks& hooks_;
};

// The labels of `fn`: `labels` when given, else the classes_ of the object a bound method
// belongs to (a scikit-learn estimator's predict_proba). Throws core::UsageError otherwise.
std::vector<std::string> model_labels(const pybind11::object& fn, const pybind11::object& labels);

// "python:" + model_id, or + the callable's qualified name when model_id is None.
std::string model_identity(const pybind11::object& fn, const pybind11::object& model_id);

}  // namespace assay::python
