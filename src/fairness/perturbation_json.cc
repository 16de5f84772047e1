#include "fairness/perturbation_json.h"

#include <cmath>

namespace assay::fairness {
namespace {

nlohmann::ordered_json number(double v) {
  if (!std::isfinite(v)) return nullptr;
  return std::round(v * 1e6) / 1e6;
}

}  // namespace

nlohmann::ordered_json perturbation_to_json(const Perturbation& p) {
  nlohmann::ordered_json j;
  j["text"] = p.text;
  j["kind"] = std::string(to_string(p.kind));
  j["group"] = p.group;
  j["from_group"] =
      p.from_group.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(p.from_group);
  j["old"] = p.old_word;
  j["new"] = p.new_word;
  j["evidence"] = p.evidence;
  auto spans = nlohmann::ordered_json::array();
  for (const auto& s : p.spans) {
    spans.push_back(
        {{"begin", s.char_begin}, {"end", s.char_end}, {"old", s.old_text}, {"new", s.new_text}});
  }
  j["spans"] = std::move(spans);
  j["fluency"] = number(p.fluency);
  j["fluency_ratio"] = number(p.fluency_ratio);
  if (!p.checks.empty()) j["checks"] = p.checks;
  return j;
}

nlohmann::ordered_json perturbation_set_to_json(const InputRecord& input,
                                                const PerturbationSet& set, bool with_dropped) {
  nlohmann::ordered_json j;
  j["line"] = input.line;
  j["text"] = input.text;
  if (input.label) j["label"] = *input.label;
  j["mutable"] = set.is_mutable();
  j["person_nouns"] = set.n_person_nouns;
  if (set.n_names) j["names"] = set.n_names;
  if (set.n_group_words) j["group_words"] = set.n_group_words;
  j["fluency"] = number(set.fluency);
  if (set.limit_reached) j["limit_reached"] = true;
  auto list = nlohmann::ordered_json::array();
  for (const auto& p : set.perturbations) list.push_back(perturbation_to_json(p));
  j["perturbations"] = std::move(list);
  if (with_dropped) {
    auto dropped = nlohmann::ordered_json::array();
    for (const auto& d : set.dropped) {
      dropped.push_back({{"kind", std::string(to_string(d.kind))},
                         {"group", d.group},
                         {"old", d.old_word},
                         {"new", d.new_word},
                         {"reason", d.reason}});
    }
    j["dropped"] = std::move(dropped);
  }
  return j;
}

}  // namespace assay::fairness
