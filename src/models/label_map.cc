#include "models/label_map.h"

#include <algorithm>

#include "core/error.h"

namespace assay::models {

LabelMap LabelMap::parse(const std::string& text) {
  LabelMap map;
  if (text.empty()) return map;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t stop = std::min(text.find(',', start), text.size());
    const std::string entry = text.substr(start, stop - start);
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size()) {
      throw core::UsageError("label map '" + text + "': entries look like NAME=label, got '" +
                             entry + "'");
    }
    std::string name = entry.substr(0, eq);
    for (const auto& [seen, label] : map.entries_) {
      if (seen == name) {
        throw core::UsageError("label map '" + text + "': '" + name + "' is mapped twice");
      }
    }
    map.entries_.emplace_back(std::move(name), entry.substr(eq + 1));
    start = stop + 1;
  }
  return map;
}

std::vector<std::string> LabelMap::labels() const {
  std::vector<std::string> out;
  for (const auto& [name, label] : entries_) {
    if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
  }
  return out;
}

const std::string& LabelMap::resolve(const std::string& name) const {
  for (const auto& [from, label] : entries_) {
    if (from == name) return label;
  }
  return name;
}

std::string repeated_label(const std::vector<std::string>& labels) {
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (std::find(labels.begin(), labels.begin() + i, labels[i]) != labels.begin() + i)
      return labels[i];
  return "";
}

std::string listed_labels(const std::vector<std::string>& labels) {
  std::string out;
  for (std::size_t i = 0; i < labels.size(); ++i) out += (i ? ", " : "") + labels[i];
  return out;
}

}  // namespace assay::models
