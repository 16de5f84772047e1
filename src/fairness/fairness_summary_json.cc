#include "fairness/fairness_summary_json.h"

#include <algorithm>
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

}  // namespace

nlohmann::ordered_json fairness_summary_json(const FairnessTestSummary& summary,
                                             const std::string& model_identity,
                                             const std::string& attribute) {
  nlohmann::ordered_json s;
  s["model"] = model_identity;
  s["attribute"] = attribute;
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
  for (std::size_t i = 0; i < flips.size() && i < 20; ++i)
    top.push_back({{"substitution", flips[i].first}, {"violations", flips[i].second}});
  s["top_flips"] = top;
  nlohmann::ordered_json shifts;
  for (const auto& [group, v] : summary.score_shifts) shifts[group] = shift_stats(v);
  s["score_shift_by_group"] = shifts;
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
