#include "fairness/fairness_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "core/error.h"
#include "core/jsonl.h"
#include "core/svg_chart.h"
#include "core/table.h"
#include "core/xml_escape.h"
#include "fairness/fairness_summary_json.h"
#include "fairness/json_fields.h"
#include "fairness/mitigation_study.h"
#include "fairness/substitution.h"

namespace assay::fairness {
namespace {

namespace fs = std::filesystem;
using core::ParseError;
using core::SourceLocation;
using nlohmann::json;

// --- reading ---------------------------------------------------------------------------------

// Byte offset of every code point of `text`, plus text.size() at the end.
std::vector<std::size_t> code_point_offsets(const std::string& text) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) at.push_back(i);
  }
  at.push_back(text.size());
  return at;
}

std::size_t code_points(const std::string& text) {
  return code_point_offsets(text).size() - 1;
}

void read_violations(ReportRun& run, const std::string& path) {
  core::JsonlReader reader(path);
  json v;
  while (reader.next(v)) {
    const JsonFields f{reader.location()};
    ReportViolation r;
    r.line = f.count(v, "line");
    r.original = f.text(v, "original");
    r.perturbed = f.text(v, "perturbed");
    r.kind = f.text(v, "kind");
    r.group = f.text(v, "group");
    r.old_word = f.text(v, "old");
    r.new_word = f.text(v, "new");
    r.label_original = f.text(v, "label_original");
    r.label_perturbed = f.text(v, "label_perturbed");
    r.score_original = f.top_score(v, "scores_original");
    r.score_perturbed = f.top_score(v, "scores_perturbed");
    r.score_drop = v.contains("score_drop") ? f.number(v, "score_drop")
                                            : r.score_original - (1 - r.score_perturbed);
    const std::size_t length = code_points(r.original);
    std::size_t previous_end = 0;
    for (const auto& span : f.array(f.get(v, "record"), "spans")) {
      ReportSpan s{f.count(span, "begin"), f.count(span, "end"), f.text(span, "old"),
                   f.text(span, "new")};
      if (s.begin > s.end || s.end > length || s.begin < previous_end) {
        throw ParseError(f.where, "span " + std::to_string(s.begin) + ".." + std::to_string(s.end) +
                                      " is not within the original (" + std::to_string(length) +
                                      " characters) after the previous span");
      }
      previous_end = s.end;
      r.spans.push_back(std::move(s));
    }
    run.examples.push_back(std::move(r));
  }
  // Substitutions by violations, from every violation (summary.json keeps only the top 20),
  // named as summary.json names them: "director -> male director".
  std::map<std::string, ReportFlip> count;
  for (const auto& e : run.examples) {
    const auto name =
        substitution_name(e.kind == "active" ? MutationKind::kActive : MutationKind::kAnalogy,
                          e.old_word, e.new_word);
    auto& flip = count[name];
    flip.substitution = name;
    ++flip.violations;
    ++flip.toward[e.label_perturbed];
  }
  for (auto& [substitution, flip] : count) run.top_flips.push_back(std::move(flip));
  std::stable_sort(run.top_flips.begin(), run.top_flips.end(),
                   [](const auto& a, const auto& b) { return a.violations > b.violations; });
}

void read_mitigation(ReportRun& run, const std::string& path) {
  const json m = read_json_document(path);
  const JsonFields f{SourceLocation(path)};
  if (m.is_object() && m.contains("format") && f.text(m, "format") != kMitigationFormat) {
    throw ParseError(f.where, "unknown format '" + f.text(m, "format") + "' (expected '" +
                                  kMitigationFormat + "' or none)");
  }
  const std::string model = f.text(m, "model");
  if (run.has_test && model != run.model) {
    throw ParseError(f.where, "model '" + model + "' differs from summary.json's '" + run.model +
                                  "' (one directory per model)");
  }
  run.model = model;
  run.attribute = f.text(m, "attribute");
  run.inputs = f.count(m, "inputs");
  run.mutable_inputs = f.count(m, "mutable");
  run.perturbations = f.count(m, "perturbations");
  run.violations_before = f.count(m, "violations_before");
  for (const auto& e : f.array(m, "epsilons")) {
    ReportEpsilon r;
    r.epsilon = f.number(e, "epsilon");
    r.violations = f.count(e, "violations");
    r.remaining_percent = f.number(e, "remaining_percent");
    const json& ref = f.get(e, "reference");
    r.reference_certified = f.number(ref, "certified_epsilon");
    r.reference_violations = f.count(ref, "violations");
    r.reference_remaining_percent = f.number(ref, "remaining_percent");
    run.epsilons.push_back(r);
  }
  std::sort(run.epsilons.begin(), run.epsilons.end(),
            [](const auto& a, const auto& b) { return a.epsilon < b.epsilon; });
}

// --- rendering helpers -----------------------------------------------------------------------

std::string esc(const std::string& s) {
  return core::xml_escape(s);
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// 10662 -> "10,662".
std::string grouped(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string percent(std::size_t part, std::size_t whole) {
  if (whole == 0) return "n/a";
  return fmt("%.1f %%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string arrow(const std::string& substitution) {
  const auto at = substitution.find(" -> ");
  if (at == std::string::npos) return substitution;
  return substitution.substr(0, at) + " → " + substitution.substr(at + 4);
}

std::string attribute_words(const std::string& attribute) {
  std::string out = attribute;
  std::replace(out.begin(), out.end(), '-', ' ');
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

// Legends have about 20 characters of room.
std::string short_name(const std::string& name, std::size_t room = 18) {
  if (code_points(name) <= room) return name;
  const auto at = code_point_offsets(name);
  return name.substr(0, at[room - 1]) + "…";
}

std::string epsilon_text(double e) {
  return fmt("%g", e);
}

// Substitutions summed over the runs, most violations first.
std::vector<std::pair<std::string, std::size_t>> flips_over(const std::vector<ReportRun>& runs) {
  std::map<std::string, std::size_t> total;
  for (const auto& r : runs) {
    for (const auto& f : r.top_flips) total[f.substitution] += f.violations;
  }
  std::vector<std::pair<std::string, std::size_t>> out(total.begin(), total.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

// --- the parts of the page --------------------------------------------------------------------

constexpr const char* kBinLabels[] = {"1",     "2",     "3",     "4",     "5",     "6–7",  "8–9",
                                      "10–14", "15–19", "20–29", "30–49", "50–99", "≥ 100"};
constexpr std::size_t kBinStarts[] = {1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100};
constexpr std::size_t kBins = sizeof kBinStarts / sizeof *kBinStarts;

std::vector<double> binned(const std::vector<std::size_t>& per_input) {
  std::vector<double> bins(kBins, 0.0);
  for (std::size_t n = 1; n < per_input.size(); ++n) {
    std::size_t b = kBins - 1;
    while (b > 0 && n < kBinStarts[b]) --b;
    bins[b] += static_cast<double>(per_input[n]);
  }
  return bins;
}

std::string histogram_section(const std::vector<ReportRun>& runs) {
  std::string out = "<h2>Perturbations per input (Fig. 4)</h2>\n";
  // Runs on the same inputs share one distribution: one series per distinct distribution.
  std::vector<std::pair<std::vector<std::string>, std::vector<std::size_t>>> series;
  std::vector<std::string> missing;
  for (const auto& r : runs) {
    if (!r.has_test) continue;
    if (r.perturbations_per_input.empty()) {
      missing.push_back(r.name);
      continue;
    }
    bool found = false;
    for (auto& [names, h] : series) {
      if (h == r.perturbations_per_input) {
        names.push_back(r.name);
        found = true;
      }
    }
    if (!found) series.push_back({{r.name}, r.perturbations_per_input});
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + esc(m);
    out += "<p class=\"missing\">Not available for " + list +
           ": its summary.json has no <code>perturbations_per_input</code> (written by "
           "<code>assay fair test</code> of this version; run it again, with <code>--cache</code> "
           "it asks the model nothing).</p>\n";
  }
  if (series.empty()) {
    if (missing.empty()) {
      out +=
          "<p class=\"missing\">No <code>assay fair test</code> results given (summary.json): "
          "nothing to draw.</p>\n";
    }
    return out;
  }
  std::size_t last = 4;  // always show 1..5
  std::vector<std::vector<double>> bins;
  for (const auto& s : series) {
    bins.push_back(binned(s.second));
    for (std::size_t b = 0; b < kBins; ++b) {
      if (bins.back()[b] > 0) last = std::max(last, b);
    }
  }
  core::BarChart chart;
  chart.labels.title = "Figure 4: inputs by number of perturbations";
  chart.labels.x_label = "perturbations of one input";
  chart.labels.y_label = "inputs";
  chart.fit_labels = true;
  chart.counts = true;
  for (std::size_t b = 0; b <= last; ++b) chart.categories.push_back(kBinLabels[b]);
  std::vector<core::Table::Column> columns{{"inputs of", core::Align::kLeft},
                                           {"none", core::Align::kRight}};
  for (std::size_t b = 0; b <= last; ++b) columns.push_back({kBinLabels[b], core::Align::kRight});
  core::Table table(std::move(columns),
                    "Inputs by the number of perturbations the perturbator made of them (the "
                    "chart leaves out the inputs with none).");
  for (std::size_t k = 0; k < series.size(); ++k) {
    std::string name;
    for (const auto& n : series[k].first) name += (name.empty() ? "" : ", ") + n;
    core::BarSeries s{short_name(name), {}};
    std::vector<std::string> row{name, grouped(series[k].second.empty() ? 0 : series[k].second[0])};
    for (std::size_t b = 0; b <= last; ++b) {
      s.values.push_back(bins[k][b]);
      row.push_back(grouped(static_cast<std::size_t>(bins[k][b])));
    }
    chart.series.push_back(std::move(s));
    table.add_row(std::move(row));
  }
  return out + core::render_svg(chart) + table.html();
}

std::string table1_section(const std::vector<ReportRun>& runs) {
  std::string out = "<h2>Violations per run (Table 1)</h2>\n";
  const bool any_test =
      std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.has_test; });
  if (!any_test) {
    return out +
           "<p class=\"missing\">No <code>assay fair test</code> results given "
           "(summary.json, violations.jsonl): run <code>assay fair test --out DIR</code> "
           "and pass DIR.</p>\n";
  }
  const bool any_mitigation =
      std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.has_mitigation; });
  // Analogy and active, and every other mutation kind (name, group) a run has.
  std::vector<std::string> kinds = {"analogy", "active"};
  for (const char* kind : {"name", "group"}) {
    const bool any = std::any_of(runs.begin(), runs.end(), [&](const auto& r) {
      const auto it = r.perturbations_by_kind.find(kind);
      return it != r.perturbations_by_kind.end() && it->second > 0;
    });
    if (any) kinds.push_back(kind);
  }
  std::string kinds_heading;
  for (const auto& k : kinds) kinds_heading += (kinds_heading.empty() ? "" : " / ") + k;
  const auto split = [&kinds](std::size_t total, const std::map<std::string, std::size_t>& by) {
    std::string cell = grouped(total) + " (";
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      const auto it = by.find(kinds[i]);
      cell += (i ? " / " : "") + grouped(it == by.end() ? 0 : it->second);
    }
    return cell + ")";
  };
  std::vector<core::Table::Column> columns{
      {"run", core::Align::kLeft},
      {"inputs", core::Align::kRight},
      {"mention a person (mutable)", core::Align::kRight},
      {"perturbations (" + kinds_heading + ")", core::Align::kRight},
      {"violations (" + kinds_heading + ")", core::Align::kRight},
      {"share of perturbations", core::Align::kRight},
      {"inputs with a violation (of mutable)", core::Align::kRight}};
  if (any_mitigation) {
    columns.push_back({"remaining after the neutral layer (smallest ε)", core::Align::kRight});
  }
  core::Table table(std::move(columns),
                    "A violation: a perturbation whose label differs from the original's. "
                    "Mutable: inputs with at least one perturbation. The models' identities are "
                    "under Sources.");
  for (const auto& r : runs) {
    if (!r.has_test) continue;
    std::vector<std::string> row{
        r.name,
        grouped(r.inputs),
        grouped(r.mutable_inputs) + " (" + percent(r.mutable_inputs, r.inputs) + ")",
        split(r.perturbations, r.perturbations_by_kind),
        split(r.violations, r.violations_by_kind),
        percent(r.violations, r.perturbations),
        grouped(r.inputs_with_violations) + " (" +
            percent(r.inputs_with_violations, r.mutable_inputs) + ")"};
    if (any_mitigation) {
      if (r.has_mitigation && !r.epsilons.empty()) {
        const auto& e = r.epsilons.front();
        row.push_back(grouped(e.violations) + " of " + grouped(r.violations_before) +
                      " at ε = " + epsilon_text(e.epsilon));
      } else {
        row.push_back(std::string(core::Table::kMissing));
      }
    }
    table.add_row(std::move(row));
  }
  return out + table.html();
}

// "+0.0123", "−0.0040" (a real minus sign), "0" for zero.
std::string signed_score(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (v == 0) return "0";
  const std::string s = fmt("%+.4f", v);
  return s[0] == '-' ? "−" + s.substr(1) : s;
}

std::size_t count_of(const std::map<std::string, std::size_t>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

// Violations toward the favourable label minus those away from it.
long long net_toward(const SummaryGroup& g, const std::string& label) {
  const auto to = static_cast<long long>(count_of(g.flips_toward, label));
  return to - (static_cast<long long>(g.violations) - to);
}

double mean_change_of(const SummaryGroup& g, const std::string& label) {
  const auto it = g.mean_change.find(label);
  return it == g.mean_change.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

// Groups most favoured first: net flips toward `label`, then its mean score change.
std::vector<const SummaryGroup*> by_favour(const ReportRun& r, const std::string& label) {
  std::vector<const SummaryGroup*> out;
  for (const auto& g : r.groups) out.push_back(&g);
  std::stable_sort(out.begin(), out.end(), [&](const SummaryGroup* a, const SummaryGroup* b) {
    const long long na = net_toward(*a, label), nb = net_toward(*b, label);
    if (na != nb) return na > nb;
    const double ma = mean_change_of(*a, label), mb = mean_change_of(*b, label);
    return (std::isfinite(ma) ? ma : 0) > (std::isfinite(mb) ? mb : 0);
  });
  return out;
}

// "model lr:sha256:21b7a4… on data/sst2.tsv, attribute gender"
std::string run_description(const ReportRun& r) {
  std::string out = "model <code>" + esc(short_name(r.model, 40)) + "</code>";
  if (!r.data.empty()) out += " on <code>" + esc(short_name(r.data, 60)) + "</code>";
  return out + ", attribute " + esc(attribute_words(r.attribute));
}

std::string missing_direction() {
  return "<p class=\"missing\">Direction and severity are not in this summary.json (written by "
         "an older <code>assay fair test</code>; run it again, with <code>--cache</code> it asks "
         "the model nothing).</p>\n";
}

// Per group: perturbations, violations toward each label, each label's mean score change.
std::string direction_table(const ReportRun& r) {
  std::vector<core::Table::Column> columns{{"rewritten as", core::Align::kLeft},
                                           {"perturbations", core::Align::kRight}};
  for (const auto& l : r.labels) columns.push_back({"violations toward " + l, core::Align::kRight});
  for (const auto& l : r.labels)
    columns.push_back({"mean change of " + l + "'s score", core::Align::kRight});
  core::Table table(std::move(columns),
                    "Per group the perturbed texts speak of: the violations by the label the "
                    "perturbed text got, and the mean change of each label's score over every "
                    "perturbation (perturbed minus original; a violation or not).");
  for (const auto* g : by_favour(r, favourable_label(r.labels))) {
    std::vector<std::string> row{g->name, grouped(g->perturbations)};
    for (const auto& l : r.labels) row.push_back(grouped(count_of(g->flips_toward, l)));
    for (const auto& l : r.labels) row.push_back(signed_score(mean_change_of(*g, l)));
    table.add_row(std::move(row));
  }
  return table.html();
}

// Per substitution between groups ("male → female", "— → female" for an insertion): how many,
// and the violations by the label the perturbed text got; most violations first.
std::string group_pair_table(const ReportRun& r) {
  if (r.group_pairs.empty()) return "";
  std::vector<core::Table::Column> columns{{"from → to", core::Align::kLeft},
                                           {"perturbations", core::Align::kRight},
                                           {"violations", core::Align::kRight}};
  for (const auto& l : r.labels) columns.push_back({"toward " + l, core::Align::kRight});
  core::Table table(std::move(columns),
                    "Per substitution between groups: the group the original words named and "
                    "the one the perturbed text names (— for an inserted adjective, whose noun "
                    "named none), and the violations by the label the perturbed text got.");
  std::vector<const SummaryGroupPair*> pairs;
  for (const auto& p : r.group_pairs) pairs.push_back(&p);
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const SummaryGroupPair* a, const SummaryGroupPair* b) {
                     return a->violations > b->violations;
                   });
  for (const auto* p : pairs) {
    std::vector<std::string> row{(p->from.empty() ? std::string("—") : p->from) + " → " + p->to,
                                 grouped(p->perturbations), grouped(p->violations)};
    for (const auto& l : r.labels) row.push_back(grouped(count_of(p->flips_toward, l)));
    table.add_row(std::move(row));
  }
  return table.html();
}

// Label flips counted at each least score change, over all groups and per group.
std::string severity_table(const ReportRun& r) {
  std::vector<core::Table::Column> columns{
      {"least fall of the original label's score", core::Align::kLeft},
      {"violations", core::Align::kRight}};
  for (const auto& g : r.groups) columns.push_back({"as " + g.name, core::Align::kRight});
  core::Table table(std::move(columns),
                    "A changed label counted only when the score of the label the original "
                    "text got fell by at least this much: small falls are texts the model was "
                    "unsure of. This run counted violations at " +
                        epsilon_text(r.min_delta) + " (fair test --min-delta).");
  for (const auto& [d, n] : r.at_min_delta) {
    std::vector<std::string> row{
        (d == r.min_delta ? "≥ " + epsilon_text(d) + " (this run)" : "≥ " + epsilon_text(d)),
        grouped(n)};
    for (const auto& g : r.groups) {
      const auto it = g.at_min_delta.find(d);
      row.push_back(it == g.at_min_delta.end() ? std::string(core::Table::kMissing)
                                               : grouped(it->second));
    }
    table.add_row(std::move(row));
  }
  return table.html();
}

std::string flips_table(const ReportRun& r, std::size_t top) {
  if (r.top_flips.empty()) return "<p>No substitution changed a label.</p>\n";
  std::set<std::string> label_set(r.labels.begin(), r.labels.end());
  for (const auto& f : r.top_flips) {
    for (const auto& [label, n] : f.toward) label_set.insert(label);
  }
  std::vector<std::string> labels = r.labels;
  for (const auto& l : label_set) {
    if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
  }
  std::vector<core::Table::Column> columns{{"substitution", core::Align::kLeft},
                                           {"violations", core::Align::kRight}};
  for (const auto& l : labels) columns.push_back({"toward " + l, core::Align::kRight});
  core::Table table(std::move(columns),
                    "Violations per substitution and the label each flipped to, from "
                    "violations.jsonl; \"male\" or \"female\" before the noun is an inserted "
                    "adjective.");
  for (std::size_t i = 0; i < r.top_flips.size() && i < top; ++i) {
    const auto& f = r.top_flips[i];
    std::vector<std::string> row{arrow(f.substitution), grouped(f.violations)};
    for (const auto& l : labels) {
      const std::size_t n = count_of(f.toward, l);
      row.push_back(n ? grouped(n) : std::string(core::Table::kMissing));
    }
    table.add_row(std::move(row));
  }
  return table.html();
}

std::string examples_table(const ReportRun& r, std::size_t per_run) {
  if (r.examples.empty()) return "<p>No violations: no perturbation changed a label.</p>\n";
  core::Table table({{"line", core::Align::kRight},
                     {"kind", core::Align::kLeft},
                     {"original", core::Align::kLeft, true},
                     {"perturbed", core::Align::kLeft, true},
                     {"label (score) before → after", core::Align::kLeft}},
                    "The changed words are marked: the violations whose original label's score "
                    "fell furthest, taken in turn from each kind of perturbation (analogy, "
                    "active, name, group) so that every kind shows; every violation is in "
                    "violations.jsonl.");
  // Each kind's violations by how far the score fell, then one of each kind in turn.
  std::map<std::string, std::vector<const ReportViolation*>> by_kind;
  for (const auto& v : r.examples) by_kind[v.kind].push_back(&v);
  for (auto& [kind, list] : by_kind) {
    std::stable_sort(list.begin(), list.end(),
                     [](const auto* a, const auto* b) { return a->score_drop > b->score_drop; });
  }
  std::vector<const ReportViolation*> order;
  for (std::size_t round = 0; order.size() < r.examples.size(); ++round) {
    std::vector<const ReportViolation*> turn;
    for (const auto& [kind, list] : by_kind)
      if (round < list.size()) turn.push_back(list[round]);
    std::stable_sort(turn.begin(), turn.end(),
                     [](const auto* a, const auto* b) { return a->score_drop > b->score_drop; });
    order.insert(order.end(), turn.begin(), turn.end());
  }
  for (std::size_t i = 0; i < order.size() && i < per_run; ++i) {
    const auto& v = *order[i];
    std::vector<std::pair<std::size_t, std::size_t>> before, after;
    std::ptrdiff_t shift = 0;
    const std::size_t perturbed_length = code_points(v.perturbed);
    for (const auto& s : v.spans) {
      if (s.end > s.begin) before.emplace_back(s.begin, s.end);
      const auto nb = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(s.begin) + shift);
      const std::size_t ne = nb + code_points(s.new_text);
      if (ne > nb && ne <= perturbed_length) after.emplace_back(nb, ne);
      shift += static_cast<std::ptrdiff_t>(code_points(s.new_text)) -
               static_cast<std::ptrdiff_t>(s.end - s.begin);
    }
    table.add_row({std::to_string(v.line), v.kind, mark_spans(v.original, before),
                   mark_spans(v.perturbed, after),
                   v.label_original + " (" + fmt("%.3f", v.score_original) + ") → " +
                       v.label_perturbed + " (" + fmt("%.3f", v.score_perturbed) + ")"});
  }
  return table.html();
}

// One section per (model, attribute) run that fair test wrote.
std::string run_sections(const std::vector<ReportRun>& runs, const FairnessReportOptions& options) {
  std::string out;
  for (const auto& r : runs) {
    if (!r.has_test) continue;
    out += "<h2>" + esc(r.name) + "</h2>\n<p>" + run_description(r) + ": " + grouped(r.violations) +
           " violations in " + grouped(r.inputs_with_violations) + " of " +
           grouped(r.mutable_inputs) + " texts that mention a person.</p>\n";
    out += "<h3>Which way each group pushes the model</h3>\n";
    if (r.has_direction) {
      out += "<p>" + favour_sentence_html(r) + "</p>\n" + direction_table(r) + group_pair_table(r);
      out += "<h3>Violations by how far the score moved</h3>\n" + severity_table(r);
    } else {
      out += missing_direction();
    }
    out += "<h3>Substitutions that flip labels most</h3>\n" +
           flips_table(r, options.top_substitutions);
    out +=
        "<h3>Example violations (Table 2)</h3>\n" + examples_table(r, options.examples_per_model);
  }
  if (out.empty()) {
    return "<h2>Violations by run</h2>\n<p class=\"missing\">No <code>assay fair test</code> "
           "results given (summary.json, violations.jsonl).</p>\n";
  }
  return out;
}

std::string mitigation_section(const std::vector<ReportRun>& runs) {
  std::string out = "<h2>Violations remaining after the neutral layer (Fig. 5)</h2>\n";
  std::vector<const ReportRun*> with;
  for (const auto& r : runs) {
    if (r.has_mitigation) with.push_back(&r);
  }
  if (with.empty()) {
    return out +
           "<p class=\"missing\">No mitigation results given (mitigation.json): run "
           "<code>assay fair mitigate --model SPEC --input FILE --out DIR</code> (after "
           "<code>fair test</code> with the same <code>--cache</code> it asks the model "
           "nothing) and pass DIR.</p>\n";
  }
  core::LineChart chart;
  chart.labels.title = "Figure 5: violations remaining after the neutral layer";
  chart.labels.x_label = "ε (log scale)";
  chart.labels.y_label = "remaining, % of violations before";
  chart.log_x = true;
  chart.markers = true;
  std::set<double> all_eps;
  for (const auto* r : with) {
    core::LineSeries ours{short_name(r->name), {}, {}};
    core::LineSeries ref{short_name(r->name, 11) + " (ref.)", {}, {}};
    for (const auto& e : r->epsilons) {
      all_eps.insert(e.epsilon);
      if (e.epsilon <= 0) continue;
      if (std::isfinite(e.remaining_percent)) {
        ours.x.push_back(e.epsilon);
        ours.y.push_back(e.remaining_percent);
      }
      if (std::isfinite(e.reference_remaining_percent)) {
        ref.x.push_back(e.epsilon);
        ref.y.push_back(e.reference_remaining_percent);
      }
    }
    chart.series.push_back(std::move(ours));
    chart.series.push_back(std::move(ref));
  }
  std::vector<core::Table::Column> columns{{"model", core::Align::kLeft},
                                           {"weighting", core::Align::kLeft}};
  for (const double e : all_eps) columns.push_back({"ε = " + epsilon_text(e), core::Align::kRight});
  core::Table table(std::move(columns),
                    "Violations remaining of those before smoothing. Provable: f(x_i) ≤ e^ε f(x_j) "
                    "for every pair; the reference code's weighting (\"ref.\" in the chart) at the "
                    "same nominal ε certifies only ln(1 + e^ε).");
  for (const auto* r : with) {
    std::vector<std::string> ours{r->name, "provable"}, ref{r->name, "reference code"};
    for (const double e : all_eps) {
      const ReportEpsilon* row = nullptr;
      for (const auto& x : r->epsilons) {
        if (x.epsilon == e) row = &x;
      }
      if (!row) {
        ours.push_back(std::string(core::Table::kMissing));
        ref.push_back(std::string(core::Table::kMissing));
        continue;
      }
      const auto cell = [](std::size_t n, double pct) {
        return std::to_string(n) + (std::isfinite(pct) ? " (" + fmt("%.1f %%", pct) + ")" : "");
      };
      ours.push_back(cell(row->violations, row->remaining_percent));
      ref.push_back(cell(row->reference_violations, row->reference_remaining_percent));
    }
    table.add_row(std::move(ours));
    table.add_row(std::move(ref));
  }
  const bool drawable = std::any_of(chart.series.begin(), chart.series.end(),
                                    [](const auto& s) { return !s.x.empty(); });
  if (drawable) out += core::render_svg(chart);
  return out + table.html();
}

}  // namespace

std::string mark_spans(const std::string& text,
                       const std::vector<std::pair<std::size_t, std::size_t>>& ranges) {
  const auto at = code_point_offsets(text);
  std::string out;
  std::size_t done = 0;  // bytes
  for (const auto& [b, e] : ranges) {
    if (b >= e || e >= at.size()) continue;
    const std::size_t bb = at[b], eb = at[e];
    if (bb < done) continue;
    out += core::xml_escape(text.substr(done, bb - done));
    out += "<mark>" + core::xml_escape(text.substr(bb, eb - bb)) + "</mark>";
    done = eb;
  }
  return out + core::xml_escape(text.substr(done));
}

ReportRun read_report_run(const std::string& dir) {
  ReportRun run;
  run.dir = dir;
  fs::path p(dir);
  run.name = (p.has_filename() ? p.filename() : p.parent_path().filename()).string();
  if (run.name.empty() || run.name == ".")
    run.name = fs::absolute(p).lexically_normal().filename().string();
  std::error_code ec;
  if (!fs::is_directory(p, ec)) {
    throw core::UsageError(SourceLocation(dir),
                           "not a directory (expected the directory fair test or fair "
                           "mitigate wrote)");
  }
  const std::string summary = (p / "summary.json").string();
  const std::string violations = (p / "violations.jsonl").string();
  const std::string mitigation = (p / "mitigation.json").string();
  if (fs::exists(summary, ec)) {
    if (!fs::exists(violations, ec)) {
      throw core::UsageError(SourceLocation(dir),
                             "summary.json without violations.jsonl (both are fair test's)");
    }
    static_cast<FairnessSummaryFile&>(run) = read_fairness_summary(summary);
    read_violations(run, violations);
    run.has_test = true;
  }
  if (fs::exists(mitigation, ec)) {
    read_mitigation(run, mitigation);
    run.has_mitigation = true;
  }
  if (!run.has_test && !run.has_mitigation) {
    throw core::UsageError(SourceLocation(dir),
                           "neither summary.json (assay fair test) nor mitigation.json (assay "
                           "fair mitigate) is there");
  }
  return run;
}

namespace {

// Whether a label's name says it is the favourable one ("pos", "Positive", "1", ...).

}  // namespace

std::string favour_sentence_html(const ReportRun& r) {
  if (!r.has_direction || r.groups.empty() || r.labels.empty()) return "";
  const std::string fav = favourable_label(r.labels);
  const auto order = by_favour(r, fav);
  const std::string f = "<i>" + esc(fav) + "</i>";
  std::size_t total = 0;
  for (const auto* g : order) total += g->violations;
  // Each group: its flips toward and away from the favourable label, its mean score change.
  std::string groups;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& g = *order[i];
    const std::size_t to = count_of(g.flips_toward, fav);
    if (i > 0) groups += "; ";
    groups += (i == 0 ? "rewritten as " : "as ") + esc(g.name) + ", " + std::to_string(to) +
              (i == 0 ? " toward " + f + " and " : " and ") + std::to_string(g.violations - to) +
              (i == 0 ? " away from it" : "") + " (mean change of " +
              (i == 0 ? f + "'s score " : "") + signed_score(mean_change_of(g, fav)) + ")";
  }
  const bool named = names_favourable(fav);
  const std::string taking = named ? ""
                                   : " (" + f +
                                         ", the model's last label, taken as the "
                                         "favourable one)";
  if (total == 0) {
    std::string changes;
    for (const auto* g : order) {
      changes += (changes.empty() ? "" : ", ") + std::string("as ") + esc(g->name) + " " +
                 signed_score(mean_change_of(*g, fav));
    }
    return "No rewrite changed a label, so the model favours no group by its labels (mean "
           "change of " +
           f + "'s score " + changes + ")" + taking + ".";
  }
  // The tests, over the groups in `order`.
  // Flips from a tie at the top of the original's scores are counted apart.
  std::vector<GroupFlips> flips;
  std::size_t ties = 0;
  for (const auto* g : order) {
    std::size_t tied = 0;
    for (const auto& [label, n] : g->from_tie) tied += n;
    ties += tied;
    const std::size_t to = count_of(g->flips_toward, fav) - count_of(g->from_tie, fav);
    flips.push_back({g->name, to, g->violations - tied - to});
  }
  const std::string apart = ties == 0
                                ? ""
                                : " (" + std::to_string(ties) + " flip" + (ties == 1 ? "" : "s") +
                                      " from a text whose top scores tie counted apart)";
  const auto tests = direction_tests(flips);
  const std::string level = "at the 5 % level (exact sign test" +
                            (order.size() == 1 ? std::string(")")
                                               : ", Holm's correction across the " +
                                                     std::to_string(order.size()) + " groups)");
  auto described = [&](const DirectionTest& t) {
    const std::size_t n = t.toward + t.away;
    return esc(t.group) + ", " + std::to_string(t.toward) + " of " + std::to_string(n) +
           " flips toward " + f + " (95 % interval of the share " + fmt("%.2f", t.low) + "–" +
           fmt("%.2f", t.high) + ", p = " + fmt("%.2g", t.p_holm) + ")";
  };
  std::vector<std::string> toward_names, away_names;
  std::string leaning;
  for (const auto& t : tests) {
    const int lean = t.lean();
    if (lean == 0) continue;
    (lean > 0 ? toward_names : away_names).push_back("<b>" + esc(t.group) + "</b>");
    leaning += std::string(leaning.empty() ? "" : "; ") + "rewritten as " + described(t);
  }
  // "a", "a and b", "a, b and c".
  auto listed = [](const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
      out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
  };
  const std::string favoured = listed(toward_names), disfavoured = listed(away_names);
  const auto& top = *order.front();
  const auto& bottom = *order.back();
  if (order.size() > 1 && net_toward(top, fav) == net_toward(bottom, fav)) {
    return "The model favours no group: every group's flips toward " + f +
           " balance those away from it as much as another's; " + groups + taking + ".";
  }
  if (leaning.empty()) {
    const auto& closest =
        *std::min_element(tests.begin(), tests.end(), [](const auto& a, const auto& b) {
          return a.p != b.p ? a.p < b.p : a.toward + a.away > b.toward + b.away;
        });
    return "The model favours no group beyond chance: no group's flips lean toward " + f +
           " or away from it " + level + apart + "; the closest, rewritten as " +
           described(closest) + ". Flips: " + groups + taking + ".";
  }
  std::string claim = "The model ";
  if (!favoured.empty()) claim += "favours " + favoured;
  if (!favoured.empty() && !disfavoured.empty()) claim += " and ";
  if (!disfavoured.empty()) claim += "disfavours " + disfavoured;
  return claim + " beyond chance " + level + ", by its label flips toward " + f + taking + apart +
         ": " + leaning + ". Flips: " + groups + ".";
}

std::string fairness_headline_html(const std::vector<ReportRun>& runs) {
  std::vector<const ReportRun*> tested;
  std::set<std::string> attributes, models;
  for (const auto& r : runs) {
    attributes.insert(r.attribute);
    models.insert(r.model);
    if (r.has_test) tested.push_back(&r);
  }
  // The attribute is the name of the attribute file fair test used: escaped like every field.
  const std::string attribute =
      esc(attributes.size() == 1 ? attribute_words(*attributes.begin()) : "sensitive attribute");
  std::string out = "<p class=\"headline\">";
  if (!tested.empty()) {
    std::sort(tested.begin(), tested.end(), [](const ReportRun* a, const ReportRun* b) {
      const double pa =
          a->mutable_inputs ? double(a->inputs_with_violations) / double(a->mutable_inputs) : 0;
      const double pb =
          b->mutable_inputs ? double(b->inputs_with_violations) / double(b->mutable_inputs) : 0;
      return pa < pb;
    });
    const auto share = [](const ReportRun& r) {
      return "<b>" + percent(r.inputs_with_violations, r.mutable_inputs) + "</b>";
    };
    std::size_t total_violations = 0;
    for (const auto* r : tested) total_violations += r->violations;
    const ReportRun& lo = *tested.front();
    const ReportRun& hi = *tested.back();
    if (hi.mutable_inputs == 0) {
      out += "None of the " + grouped(hi.inputs) + " texts mentions a person whose " + attribute +
             " the perturbator could change: nothing was tested.";
    } else if (tested.size() == 1) {
      out += share(hi) + " of the texts that mention a person (" +
             grouped(hi.inputs_with_violations) + " of " + grouped(hi.mutable_inputs) +
             ") change the label of <b>" + esc(hi.name) + "</b> (" + run_description(hi) +
             ") when the person's " + attribute + " changes";
    } else {
      const auto plural = [](std::size_t n, const std::string& word) {
        return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
      };
      out += "Between " + share(lo) + " (" + esc(lo.name) + ") and " + share(hi) + " (" +
             esc(hi.name) +
             ") of the texts that mention a person change a model's label when the "
             "person's " +
             attribute + " changes (" + plural(tested.size(), "run") + ": " +
             plural(models.size(), "model") + ", " + plural(attributes.size(), "attribute") + ")";
    }
    if (hi.mutable_inputs > 0) {
      const auto flips = flips_over(runs);
      if (total_violations == 0 || flips.empty()) {
        out += ": no substitution changed a label.";
      } else {
        out += "; the substitutions that flip labels most are ";
        for (std::size_t i = 0; i < flips.size() && i < 3; ++i) {
          if (i > 0) out += i + 1 == std::min<std::size_t>(3, flips.size()) ? " and " : ", ";
          out +=
              "<i>" + esc(arrow(flips[i].first)) + "</i> (" + std::to_string(flips[i].second) + ")";
        }
        out += ".";
      }
    }
  }
  std::string mitigation;
  for (const auto& r : runs) {
    if (!r.has_mitigation || r.epsilons.empty()) continue;
    const auto& e = r.epsilons.front();
    if (!mitigation.empty()) mitigation += "; ";
    if (r.violations_before == 0) {
      mitigation += esc(r.name) + " had no violation to remove";
    } else {
      mitigation += "for " + esc(r.name) + " <b>" + fmt("%.1f %%", e.remaining_percent) +
                    "</b> of its violations remain at ε = " + epsilon_text(e.epsilon) + " (" +
                    grouped(e.violations) + " of " + grouped(r.violations_before) + ")";
    }
  }
  if (!mitigation.empty()) {
    out += std::string(tested.empty() ? "" : " ") +
           "With the neutral layer in front of the model, " + mitigation + ".";
  }
  out += "</p>\n";
  // Who is favoured, per run, in the order given.
  std::string favour;
  for (const auto& r : runs) {
    const std::string sentence = r.has_test ? favour_sentence_html(r) : std::string();
    if (sentence.empty()) continue;
    favour += tested.size() == 1 ? "<p class=\"favour\">" + sentence + "</p>\n"
                                 : "<li><b>" + esc(r.name) + "</b> (" + run_description(r) +
                                       "): " + sentence + "</li>\n";
  }
  if (!favour.empty() && tested.size() > 1) favour = "<ul class=\"favour\">\n" + favour + "</ul>\n";
  out += favour;
  // Insertions compared with each other, per run that made any.
  for (const auto* r : tested) {
    if (!r->insertions || r->insertions->places == 0) continue;
    const auto& n = *r->insertions;
    const auto it = r->violations_by_kind.find("active");
    const std::size_t active = it == r->violations_by_kind.end() ? 0 : it->second;
    out += "<p class=\"favour\">" + (tested.size() > 1 ? "<b>" + esc(r->name) + "</b>: a" : "A") +
           "t " + percent(n.places_groups_differ, n.places) + " of the places where every " +
           "group's adjective was inserted before one noun (" + grouped(n.places_groups_differ) +
           " of " + grouped(n.places) +
           ", \"the female doctor\" beside \"the male doctor\") the model gives the groups "
           "different labels, and " +
           grouped(n.violations_groups_differ) + " of the " + grouped(active) +
           " insertion violations are there; the others are where every inserted group got "
           "one label (the marking, not the group, changed it) or only one group could be "
           "inserted.</p>\n";
  }
  out +=
      "<p class=\"explain\">A text <i>mentions a person</i> when the perturbator finds a "
      "person noun it can rewrite (\"the actor\" → \"the actress\", \"the female actor\"); a "
      "<i>violation</i> is a rewrite that changes the model's label although only the "
      "person's " +
      attribute + " changed.";
  if (!mitigation.empty()) {
    out += " <i>ε</i> is how much the neutral layer lets the answer depend on the person's " +
           attribute +
           ": it keeps the scores of any two versions of a text within a factor e<sup>ε</sup> of "
           "each other (at ε = 0.1, within 10.5 %), so a smaller ε leaves fewer violations.";
  }
  return out + "</p>\n";
}

std::string fairness_report_html(const std::vector<ReportRun>& runs,
                                 const FairnessReportOptions& options) {
  std::string sources;
  for (const auto& r : runs) {
    sources += "<li><b>" + esc(r.name) + "</b>: " + esc(r.dir) + " (" +
               (r.has_test ? std::string("fair test") : std::string()) +
               (r.has_test && r.has_mitigation ? ", " : "") +
               (r.has_mitigation ? "fair mitigate" : "") + "; model " + esc(r.model) +
               (r.data.empty() ? std::string() : ", data " + esc(r.data)) + ", attribute " +
               esc(r.attribute) + ")</li>\n";
  }
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>assay fair report</title>\n"
         "<style>body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em}"
         "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
         "text-align:left;vertical-align:top}.sources{overflow-wrap:anywhere}.num{text-align:right}"
         "caption{caption-side:bottom;text-align:left;color:#555}svg{max-width:100%;height:auto}"
         "mark{background:#ffd966;padding:0 1px}.headline{font-size:1.3em;line-height:1.4}"
         ".favour{font-size:1.1em;line-height:1.4}code{overflow-wrap:anywhere}"
         ".missing{color:#8a4b00}</style>\n</head><body>\n<h1>Fairness report</h1>\n" +
         fairness_headline_html(runs) + table1_section(runs) + run_sections(runs, options) +
         histogram_section(runs) + mitigation_section(runs) +
         "<h2>Sources</h2>\n<ul class=\"sources\">\n" + sources + "</ul>\n</body></html>\n";
}

}  // namespace assay::fairness
