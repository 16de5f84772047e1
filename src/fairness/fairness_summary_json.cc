#include "fairness/fairness_summary_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

#include "core/error.h"
#include "fairness/direction_test.h"
#include "fairness/json_fields.h"

namespace assay::fairness {
namespace {

using core::ParseError;
using core::SourceLocation;
using nlohmann::json;

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
  s["insertions"] = {{"places", summary.n_insertion_sites},
                     {"places_groups_differ", summary.n_insertion_sites_split},
                     {"violations_groups_differ", summary.n_insertion_violations_split}};
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
    // Of those, the flips from a tie at the top of the original's scores, by label.
    nlohmann::ordered_json from_tie = nlohmann::ordered_json::object();
    const auto tie = summary.flips_from_tie.find(group);
    for (const auto& label : summary.labels) {
      std::size_t n = 0;
      if (tie != summary.flips_from_tie.end()) {
        if (const auto it = tie->second.find(label); it != tie->second.end()) n = it->second;
      }
      from_tie[label] = n;
    }
    g["flips_from_tie"] = from_tie;
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
  // Which way each group leans: its flips toward the favourable label against those away from
  // it, an exact sign test, Holm's correction across the groups (direction_test.h).
  const std::string fav = favourable_label(summary.labels);
  // Flips from a tie are counted apart: the test takes the others.
  std::vector<GroupFlips> by_group;
  for (auto it = groups.begin(); it != groups.end(); ++it) {
    const auto& g = it.value();
    std::size_t ties = 0;
    for (const auto& [label, n] : g["flips_from_tie"].items()) ties += n.get<std::size_t>();
    const std::size_t tie_to = g["flips_from_tie"].value(fav, std::size_t{0});
    const std::size_t to = g["flips_toward"].value(fav, std::size_t{0}) - tie_to;
    by_group.push_back({it.key(), to, g["violations"].get<std::size_t>() - ties - to});
  }
  const auto tests = direction_tests(by_group);
  for (const auto& t : tests) {
    nlohmann::ordered_json d;
    d["label"] = fav;
    d["toward"] = t.toward;
    d["away"] = t.away;
    d["from_tie"] = groups[t.group]["violations"].get<std::size_t>() - t.toward - t.away;
    d["share_toward"] =
        std::isnan(t.share) ? nlohmann::ordered_json() : nlohmann::ordered_json(t.share);
    d["ci95"] = nlohmann::ordered_json::array({t.low, t.high});
    d["p"] = t.p;
    d["p_holm"] = t.p_holm;
    d["lean"] = t.lean();  // +1 toward the label, -1 away, 0 neither, at direction_level
    groups[t.group]["direction_test"] = d;
  }
  s["direction_level"] = kDirectionLevel;
  s["by_group"] = groups;
  // Direction per substitution between groups ("male" -> "female"; from null: an insertion).
  auto pairs = nlohmann::ordered_json::array();
  for (const auto& [key, c] : summary.by_group_pair) {
    nlohmann::ordered_json toward = nlohmann::ordered_json::object();
    for (const auto& label : summary.labels) {
      const auto it = c.toward.find(label);
      toward[label] = it == c.toward.end() ? 0 : it->second;
    }
    pairs.push_back(
        {{"from", key.first.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(key.first)},
         {"to", key.second},
         {"perturbations", c.perturbations},
         {"violations", c.violations},
         {"flips_toward", toward}});
  }
  s["by_group_pair"] = pairs;
  nlohmann::ordered_json per_input = nlohmann::ordered_json::object();
  for (const auto& [n, count] : summary.perturbations_per_input)
    per_input[std::to_string(n)] = count;
  s["perturbations_per_input"] = per_input;  // Fig. 4 of `fair report`
  if (summary.filtered) {                    // what the gate did
    const auto& f = *summary.filtered;
    s["gate"] = {{"scored", f.scored},
                 {"kept", f.scored - f.dropped},
                 {"dropped", f.dropped},
                 {"flagged", f.flagged}};
  }
  return s;
}

FairnessSummaryFile read_fairness_summary(const std::string& path) {
  FairnessSummaryFile run;
  const json s = read_json_document(path);
  const JsonFields f{SourceLocation(path)};
  // The first format had no "format" field (and no direction or severity).
  const bool v2 = s.is_object() && s.contains("format");
  if (v2 && f.text(s, "format") != kFairnessSummaryFormat) {
    throw ParseError(f.where, "unknown format '" + f.text(s, "format") + "' (expected '" +
                                  kFairnessSummaryFormat + "' or none)");
  }
  run.model = f.text(s, "model");
  run.attribute = f.text(s, "attribute");
  if (s.contains("data")) run.data = f.text(s, "data");
  run.inputs = f.count(s, "inputs");
  run.mutable_inputs = f.count(s, "mutable");
  run.perturbations = f.count(s, "perturbations");
  run.violations = f.count(s, "violations");
  run.inputs_with_violations = f.count(s, "inputs_with_violations");
  const auto by_kind = [&](const std::string& key, std::map<std::string, std::size_t>& counts) {
    const json& k = f.get(s, key);
    if (!k.is_object()) throw ParseError(f.where, "'" + key + "' must be an object");
    for (const auto& [kind, value] : k.items()) counts[kind] = f.count(k, kind);
  };
  by_kind("perturbations_by_kind", run.perturbations_by_kind);
  by_kind("violations_by_kind", run.violations_by_kind);
  if (s.contains("insertions")) {
    const json& k = f.get(s, "insertions");
    if (!k.is_object()) throw ParseError(f.where, "'insertions' must be an object");
    run.insertions = InsertionCounts{f.count(k, "places"), f.count(k, "places_groups_differ"),
                                     f.count(k, "violations_groups_differ")};
    if (run.insertions->places_groups_differ > run.insertions->places)
      throw ParseError(f.where, "'insertions': more places where groups differ than places");
  }
  if (s.contains("perturbations_per_input")) {
    const json& h = s["perturbations_per_input"];
    if (!h.is_object()) throw ParseError(f.where, "'perturbations_per_input' must be an object");
    for (const auto& [key, value] : h.items()) {
      if (key.empty() || key.size() > 9 ||
          !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        throw ParseError(f.where,
                         "'perturbations_per_input' keys must be counts, got '" + key + "'");
      }
      const std::size_t n = std::stoul(key);
      if (run.perturbations_per_input.size() <= n) run.perturbations_per_input.resize(n + 1, 0);
      run.perturbations_per_input[n] = f.as_count(value, "perturbations_per_input");
    }
  }
  if (!v2) return run;
  for (const auto& label : f.array(s, "labels")) {
    if (!label.is_string()) throw ParseError(f.where, "'labels' must hold strings");
    run.labels.push_back(label.get<std::string>());
  }
  run.min_delta = f.number(s, "min_delta");
  // {"0": 12, "0.1": 5}: least score change -> label flips.
  const auto thresholds = [&](const json& v, const std::string& key) {
    const json& t = f.get(v, key);
    if (!t.is_object()) throw ParseError(f.where, "'" + key + "' must be an object");
    std::map<double, std::size_t> out;
    for (const auto& [k, n] : t.items()) {
      char* end = nullptr;
      const double d = std::strtod(k.c_str(), &end);
      if (k.empty() || *end != '\0' || !std::isfinite(d) || d < 0) {
        throw ParseError(f.where, "'" + key + "' keys must be numbers >= 0, got '" + k + "'");
      }
      out[d] = f.as_count(n, key);
    }
    return out;
  };
  run.at_min_delta = thresholds(s, "violations_at_min_delta");
  const json& groups = f.get(s, "by_group");
  if (!groups.is_object()) throw ParseError(f.where, "'by_group' must be an object");
  for (const auto& [name, g] : groups.items()) {
    SummaryGroup r;
    r.name = name;
    r.perturbations = f.count(g, "perturbations");
    r.violations = f.count(g, "violations");
    const json& toward = f.get(g, "flips_toward");
    if (!toward.is_object()) throw ParseError(f.where, "'flips_toward' must be an object");
    for (const auto& [label, n] : toward.items()) r.flips_toward[label] = f.as_count(n, label);
    if (g.contains("flips_from_tie")) {
      const json& tie = f.get(g, "flips_from_tie");
      if (!tie.is_object()) throw ParseError(f.where, "'flips_from_tie' must be an object");
      for (const auto& [label, n] : tie.items()) r.from_tie[label] = f.as_count(n, label);
    }
    const json& change = f.get(g, "score_change");
    if (!change.is_object()) throw ParseError(f.where, "'score_change' must be an object");
    for (const auto& [label, stats] : change.items())
      r.mean_change[label] = f.number(stats, "mean");
    r.at_min_delta = thresholds(g, "violations_at_min_delta");
    run.groups.push_back(std::move(r));
  }
  if (s.contains("by_group_pair")) {
    for (const auto& p : f.array(s, "by_group_pair")) {
      SummaryGroupPair r;
      const json& from = f.get(p, "from");
      if (!from.is_null()) r.from = f.text(p, "from");
      r.to = f.text(p, "to");
      r.perturbations = f.count(p, "perturbations");
      r.violations = f.count(p, "violations");
      const json& toward = f.get(p, "flips_toward");
      if (!toward.is_object()) throw ParseError(f.where, "'flips_toward' must be an object");
      for (const auto& [label, n] : toward.items()) r.flips_toward[label] = f.as_count(n, label);
      run.group_pairs.push_back(std::move(r));
    }
  }
  run.has_direction = true;
  return run;
}

}  // namespace assay::fairness
