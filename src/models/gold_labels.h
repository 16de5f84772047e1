// GoldLabels: the labels an input file gives its texts, as positions among the labels of the
// model under test, so that accuracy compares like with like. A file label is taken through
// the label map (0=neg,1=pos) and must then be one of the model's labels: a file whose labels
// the model does not know is refused, never measured as all wrong or left out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/error.h"
#include "models/label_map.h"

namespace assay::models {

class GoldLabels {
 public:
  // Throws core::UsageError when the map names a label the model does not have.
  GoldLabels(std::vector<std::string> model_labels, LabelMap map);

  // The position of `label` (through the map) among the model's labels. Throws
  // core::ParseError at `where` naming the label and the model's labels otherwise.
  std::size_t index(const std::string& label, const core::SourceLocation& where) const;

  const std::vector<std::string>& model_labels() const { return model_labels_; }

 private:
  std::vector<std::string> model_labels_;
  LabelMap map_;
};

}  // namespace assay::models
