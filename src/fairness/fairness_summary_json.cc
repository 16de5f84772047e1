#include "fairness/fairness_summary_json.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

namespace assay::fairness {
namespace {

nlohmann::ordered_json shift_stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  auto q = [&](double p) {
    return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
  };
  return {{"n", v.size()},    {"mean", sum / static_cast<double>(v.size())},
          {"min", v.front()}, {"p05", q(0.05)},
          {"median", q(0.5)}, {"p95", q(0.95)},
          {"max", v.back()}};
}

// Label flips (their drops) counted at each threshold: kSeverityThresholds and the run's own.
nlohmann::ordered_json severity_json(const std::vector<double>& drops, double min_delta) {
  std::set<double> thresholds(kSeverityThresholds.begin(), kSeverityThresholds.end());
  thresholds.insert(min_delta);
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const double d : thresholds) {
    std::size_t n = 0;
    for (const double drop : drops) n += counts_at(drop, d);
    out[threshold_key(d)] = n;
  }
  return out;
}

}  // namespace

std::string threshold_key(double min_delta) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {  // the shortest that reads back
    std::snprintf(buf, sizeof buf, "%.*g", precision, min_delta);
    if (std::strtod(buf, nullptr) == min_delta) break;
  }
  return buf;
}

nlohmann::ordered_json fairness_summary_json(const FairnessTestSummary& summary,
                                             const std::string& model_identity,
                                             const std::string& attribute,
                                             const std::string& data) {
  nlohmann::ordered_json s;
  s["format"] = kFairnessSummaryFormat;
  s["model"] = model_identity;
  s["attribute"] = attribute;
  if (!data.empty()) s["data"] = data;
  s["labels"] = summary.labels;
  s["min_delta"] = summary.min_delta;
  s["inputs"] = summary.n_inputs;
  s["mutable"] = summary.n_mutable;
  s["perturbations"] = summary.n_perturbations;
  s["perturbations_by_kind"] = summary.perturbations_by_kind;
  s["violations"] = summary.n_violations;
  s["violations_by_kind"] = summary.violations_by_kind;
  s["inputs_with_violations"] = summary.n_inputs_violated;
  std::vector<std::pair<std::string, std::size_t>> flips(summary.flips.begin(),
                                                         summary.flips.end());
  std::stable_sort(flips.begin(), flips.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  auto top = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < flips.size() && i < 20; ++i) {
    nlohmann::ordered_json toward = nlohmann::ordered_json::object();
    if (const auto it = summary.flips_toward_by_substitution.find(flips[i].first);
        it != summary.flips_toward_by_substitution.end()) {
      for (const auto& [label, n] : it->second) toward[label] = n;
    }
    top.push_back(
        {{"substitution", flips[i].first}, {"violations", flips[i].second}, {"toward", toward}});
  }
  s["top_flips"] = top;
  nlohmann::ordered_json shifts;
  for (const auto& [group, v] : summary.score_shifts) shifts[group] = shift_stats(v);
  s["score_shift_by_group"] = shifts;
  // Direction and severity per group (every group that got a perturbation).
  std::vector<double> all_drops;
  nlohmann::ordered_json groups = nlohmann::ordered_json::object();
  for (const auto& [group, v] : summary.score_shifts) {
    nlohmann::ordered_json g;
    g["perturbations"] = v.size();
    nlohmann::ordered_json toward = nlohmann::ordered_json::object();
    const auto ft = summary.flips_toward.find(group);
    std::size_t violations = 0;
    for (const auto& label : summary.labels) {
      std::size_t n = 0;
      if (ft != summary.flips_toward.end()) {
        if (const auto it = ft->second.find(label); it != ft->second.end()) n = it->second;
      }
      toward[label] = n;
      violations += n;
    }
    g["violations"] = violations;
    g["flips_toward"] = toward;
    nlohmann::ordered_json change = nlohmann::ordered_json::object();
    if (const auto sc = summary.score_changes.find(group); sc != summary.score_changes.end()) {
      for (const auto& label : summary.labels) {
        const auto it = sc->second.find(label);
        if (it != sc->second.end() && !it->second.empty()) change[label] = shift_stats(it->second);
      }
    }
    g["score_change"] = change;
    const auto fd = summary.flip_drops.find(group);
    const std::vector<double> none;
    const auto& drops = fd == summary.flip_drops.end() ? none : fd->second;
    all_drops.insert(all_drops.end(), drops.begin(), drops.end());
    g["violations_at_min_delta"] = severity_json(drops, summary.min_delta);
    groups[group] = g;
  }
  s["violations_at_min_delta"] = severity_json(all_drops, summary.min_delta);
  s["by_group"] = groups;
  nlohmann::ordered_json per_input = nlohmann::ordered_json::object();
  for (const auto& [n, count] : summary.perturbations_per_input)
    per_input[std::to_string(n)] = count;
  s["perturbations_per_input"] = per_input;  // Fig. 4 of `fair report`
  if (summary.filtered) {  // what the gate did
    const auto& f = *summary.filtered;
    s["gate"] = {{"scored", f.scored},
                 {"kept", f.scored - f.dropped},
                 {"dropped", f.dropped},
                 {"flagged", f.flagged}};
  }
  return s;
}

}  // namespace assay::fairness
