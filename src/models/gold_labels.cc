#include "models/gold_labels.h"

#include <algorithm>

namespace assay::models {

GoldLabels::GoldLabels(std::vector<std::string> model_labels, LabelMap map)
    : model_labels_(std::move(model_labels)), map_(std::move(map)) {
  for (const auto& [name, label] : map_.entries()) {
    if (std::find(model_labels_.begin(), model_labels_.end(), label) == model_labels_.end()) {
      throw core::UsageError("the label map maps '" + name + "' to '" + label +
                             "', which is not a label of the model (" +
                             listed_labels(model_labels_) + ")");
    }
  }
}

std::size_t GoldLabels::index(const std::string& label, const core::SourceLocation& where) const {
  const std::string& mapped = map_.resolve(label);
  const auto it = std::find(model_labels_.begin(), model_labels_.end(), mapped);
  if (it == model_labels_.end()) {
    throw core::ParseError(where, "the label '" + label +
                                      "' is not one of the model's labels (expected " +
                                      listed_labels(model_labels_) + ", or a label mapped to one)");
  }
  return static_cast<std::size_t>(it - model_labels_.begin());
}

}  // namespace assay::models
