// LabelMap: other names of a model's labels, "NAME=label,...". The same map serves wherever a
// label is named outside the model: the {"label", "score"} answers of an HTTP endpoint
// ("NEGATIVE=neg,POSITIVE=pos") and the gold labels of an input file ("0=neg,1=pos"). Several
// names may stand for one label.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace assay::models {

class LabelMap {
 public:
  LabelMap() = default;
  // Parses "NAME=label,NAME=label,..."; "" is the empty map. Throws core::UsageError for an
  // entry without '=', with an empty name or label, or a name given twice.
  static LabelMap parse(const std::string& text);

  bool empty() const { return entries_.empty(); }
  // (name, label) in the order given.
  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }
  // The labels the map names, each once, in the order of their first entry.
  std::vector<std::string> labels() const;
  // The label `name` stands for: its entry's, or `name` itself when no entry has it.
  const std::string& resolve(const std::string& name) const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

// The first label that `labels` names twice, or "" when each is named once: scores are read by
// label name, so a model with two labels of one name cannot be read (the readers of labels
// refuse it naming the file or the child).
std::string repeated_label(const std::vector<std::string>& labels);

// "neg, pos": labels as messages list them.
std::string listed_labels(const std::vector<std::string>& labels);

}  // namespace assay::models
