#include "stability/campaign_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/excerpt.h"
#include "core/hypothesis_test.h"
#include "core/json_file.h"
#include "core/svg_chart.h"
#include "core/table.h"
#include "core/unit_plan.h"
#include "recsys/recommender_spec.h"

namespace assay::stability {
namespace {

// Shortest text that identifies the value in a table; NaN as "–" (markdown) or "" (CSV).
std::string num(double v, const char* nan_text = "n/a") {
  if (std::isnan(v)) return nan_text;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

nlohmann::ordered_json number_or_null(double v) {
  if (std::isnan(v) || std::isinf(v)) return nullptr;
  return v;
}

bool contains(const std::vector<Heuristic>& hs, Heuristic h) {
  return std::find(hs.begin(), hs.end(), h) != hs.end();
}

std::string ratio_text(const CellStats& c) {
  if (!c.baseline) return "no baseline";
  if (c.baseline_zero) return c.mean > 0 ? "baseline 0" : "0 / 0";
  return num(c.ratio) + "×";
}

// "[0.012, 0.034]": the cell's 95 % interval of the mean, clipped to [0, 1] (every oracle is a
// share of users or a distance in [0, 1]); "n/a" for one trial.
std::string interval_text(const CellStats& c) {
  if (std::isnan(c.ci_low)) return "n/a";
  return "[" + num(std::clamp(c.ci_low, 0.0, 1.0)) + ", " + num(std::clamp(c.ci_high, 0.0, 1.0)) +
         "]";
}

// "0.12 [0.05, 0.2]": the difference of means with its bootstrap interval; "n/a" without a
// baseline.
std::string difference_text(const CellStats& c) {
  if (std::isnan(c.difference)) return "n/a";
  if (std::isnan(c.difference_low)) return num(c.difference);
  return num(c.difference) + " [" + num(c.difference_low) + ", " + num(c.difference_high) + "]";
}

// How the cell compares with the algorithm's seed noise floor: "≤ floor" when a reseed alone
// moved as much, else the mean as a multiple of the floor ("floor 0" when reseeding moved
// nothing, "n/a" without retrainings).
std::string noise_text(const CellStats& c) {
  if (std::isnan(c.noise_floor)) return "n/a";
  if (c.noise_floor == 0) return "floor 0";
  if (c.within_noise) return "≤ floor";
  return num(c.mean / c.noise_floor) + "× floor";
}

const ConfigurationProfile* find_configuration(const CampaignSummary& summary,
                                               const std::string& algorithm) {
  for (const auto& c : summary.configurations) {
    if (c.algorithm == algorithm) return &c;
  }
  return nullptr;
}

double top_out_mean(const CampaignSummary& summary, const std::string& algorithm, Heuristic h,
                    std::size_t n) {
  const auto* c = find_cell(summary, algorithm, h, n, Oracle::kTopOut);
  return c ? c->mean : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

std::string modification_set_file_name(const RunKey& key) {
  // A program's spec holds blanks and slashes: they become '_', and a hash of the whole spec
  // keeps two programs apart.
  std::string name = key.algorithm;
  bool replaced = false;
  for (char& c : name) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' ||
                       c == '=' || c == '-' || c == ':' || c == '+';
    if (!plain) {
      c = '_';
      replaced = true;
    }
  }
  if (name.size() > 60) {
    name.resize(60);
    replaced = true;
  }
  if (replaced) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx",
                  static_cast<unsigned long long>(core::key_hash(key.algorithm)));
    name.append("-").append(hash, 8);
  }
  return name + "-" + std::string(to_string(key.heuristic)) + "-n" + std::to_string(key.size) +
         "-t" + std::to_string(key.trial) + ".json";
}

std::string summary_json(const CampaignConfig& config, const CampaignSummary& summary,
                         const ReportOptions& options, const std::vector<std::string>& mod_files) {
  nlohmann::ordered_json j;
  j["format"] = "assay-rec-campaign-summary/1";
  j["data"] = config.data_description;
  j["seed"] = config.seed;
  j["k"] = config.k;
  j["algorithms"] = config.algorithms;
  auto configurations = nlohmann::ordered_json::array();
  for (const auto& c : summary.configurations) {
    nlohmann::ordered_json e;
    e["algorithm"] = c.algorithm;
    e["spec"] = c.spec;
    nlohmann::ordered_json ir = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < c.rating_values.size(); ++k) {
      ir[num(c.rating_values[k])] = c.rating_influence[k];
    }
    e["rating_influence"] = ir;
    if (c.has_accuracy) {
      e["rmse"] = c.rmse;
      e["mae"] = c.mae;
      e["folds"] = c.folds;
    }
    configurations.push_back(e);
  }
  j["configurations"] = configurations;
  auto hs = nlohmann::ordered_json::array();
  for (const auto h : config.heuristics) hs.push_back(std::string(to_string(h)));
  j["heuristics"] = hs;
  j["sizes"] = config.sizes;
  j["trials_per_cell"] = config.trials;
  auto portfolio = nlohmann::ordered_json::array();
  for (const auto h : config.heuristic_options.portfolio)
    portfolio.push_back(std::string(to_string(h)));
  j["portfolio"] = portfolio;
  j["runs"] = summary.n_runs;
  j["complete"] = summary.complete;
  auto cells = nlohmann::ordered_json::array();
  for (const auto& c : summary.cells) {
    nlohmann::ordered_json e;
    e["algorithm"] = c.algorithm;
    e["heuristic"] = std::string(to_string(c.heuristic));
    e["size"] = c.size;
    e["trials"] = c.trials;
    e["oracle"] = std::string(to_string(c.oracle));
    e["mean"] = number_or_null(c.mean);
    e["sd"] = number_or_null(c.sd);
    e["baseline"] = c.baseline ? nlohmann::ordered_json(std::string(to_string(*c.baseline)))
                               : nlohmann::ordered_json(nullptr);
    e["baseline_mean"] = number_or_null(c.baseline_mean);
    e["ratio"] = number_or_null(c.ratio);
    e["test"] = std::isnan(c.p)
                    ? nlohmann::ordered_json(nullptr)
                    : nlohmann::ordered_json(c.p_exact ? "rank-sum exact" : "rank-sum normal");
    e["p"] = number_or_null(c.p);
    e["p_holm"] = number_or_null(c.p_holm);
    e["p_bh"] = number_or_null(c.p_bh);
    e["superiority"] = number_or_null(c.superiority);
    e["difference"] = number_or_null(c.difference);
    e["difference_ci95"] = {number_or_null(c.difference_low), number_or_null(c.difference_high)};
    e["p_welch"] = number_or_null(c.p_welch);
    e["p_welch_holm"] = number_or_null(c.p_welch_holm);
    e["noise_floor"] = number_or_null(c.noise_floor);
    e["within_noise"] = c.within_noise;
    e["mde"] = number_or_null(c.mde);
    e["detectable"] = std::isnan(c.mde) ? nlohmann::ordered_json(nullptr)
                                        : nlohmann::ordered_json(!std::isinf(c.mde));
    e["finding"] = !is_random_baseline(c.heuristic) && survives_correction(c);
    e["ci95"] = {number_or_null(c.ci_low), number_or_null(c.ci_high)};
    e["quartiles"] = {number_or_null(c.q1), number_or_null(c.q3)};
    e["baseline_zero"] = c.baseline_zero;
    e["mean_set_size"] = number_or_null(c.mean_set_size);
    e["failed_runs"] = c.failed;
    cells.push_back(e);
  }
  j["cells"] = cells;
  nlohmann::ordered_json pw;
  pw["alpha"] = kAlpha;
  pw["test"] =
      "Wilcoxon-Mann-Whitney rank-sum against the random baseline's trials: exact "
      "permutation p when both cells hold at most " +
      std::to_string(core::kExactRankSumMax) +
      " trials together, else the normal approximation with tie correction";
  pw["correction"] = "holm";
  pw["family"] = "per oracle: every cell of a non-random heuristic with a defined p";
  pw["headline_oracle"] = std::string(to_string(options.headline_oracle));
  auto by_oracle = nlohmann::ordered_json::array();
  for (const auto oracle : kAllOracles) {
    const PowerCheck power = oracle_power(summary, oracle, options.min_effect);
    nlohmann::ordered_json e;
    e["oracle"] = std::string(to_string(oracle));
    e["targeted_cells"] = power.targeted;
    e["below_alpha"] = power.raw;
    e["below_alpha_holm"] = power.holm;
    e["findings"] = power.findings;
    e["below_alpha_bh"] = power.bh;
    std::size_t welch = 0;
    for (const auto& c : summary.cells) {
      welch += c.oracle == oracle && !is_random_baseline(c.heuristic) && c.baseline &&
                       c.p_welch_holm < kAlpha && c.mean > c.baseline_mean
                   ? 1
                   : 0;
    }
    e["below_alpha_holm_welch"] = welch;
    e["min_trials"] = power.min_trials;
    e["min_effect"] = power.min_effect;
    e["underpowered_cells"] = power.underpowered;
    e["undetectable_cells"] = power.undetectable;
    e["low_power"] = power.low;
    e["warning"] = low_power_warning(power);
    by_oracle.push_back(e);
  }
  pw["oracles"] = by_oracle;
  j["significance"] = pw;
  auto noise = nlohmann::ordered_json::array();
  for (const auto& f : summary.noise_floor) {
    nlohmann::ordered_json e;
    e["algorithm"] = f.algorithm;
    e["trials"] = f.trials;
    e["failed_runs"] = f.failed;
    for (std::size_t o = 0; o < kNumOracles; ++o) {
      e[std::string(to_string(kAllOracles[o]))] = number_or_null(f.mean[o]);
    }
    noise.push_back(e);
  }
  j["noise_floor"] = noise;
  auto timing = nlohmann::ordered_json::array();
  for (const auto& t : summary.timing) {
    nlohmann::ordered_json e;
    e["heuristic"] = std::string(to_string(t.heuristic));
    e["size"] = t.size;
    e["runs"] = t.runs;
    e["mean_ms"] = number_or_null(t.mean_seconds * 1e3);
    e["max_ms"] = number_or_null(t.max_seconds * 1e3);
    timing.push_back(e);
  }
  j["timing"] = timing;
  auto failed = nlohmann::ordered_json::array();
  for (const auto& f : summary.failed) {
    nlohmann::ordered_json e;
    e["algorithm"] = f.algorithm;
    e["heuristic"] = f.noise ? nlohmann::ordered_json("noise")
                             : nlohmann::ordered_json(std::string(to_string(f.heuristic)));
    e["size"] = f.noise ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(f.size);
    e["failed_runs"] = f.failed;
    e["first_reason"] = f.reason;
    e["first_stderr_tail"] = f.stderr_tail;
    failed.push_back(e);
  }
  j["failed_runs"] = failed;
  nlohmann::ordered_json ex;
  ex["delta"] = options.delta;
  ex["oracle"] = std::string(to_string(options.delta_oracle));
  ex["all"] = options.save_all;
  ex["files"] = mod_files;
  j["exceeding_delta"] = ex;
  return j.dump(1) + "\n";
}

std::string figure2_svg(const CampaignConfig& config, const CampaignSummary& summary) {
  core::BarChart chart;
  chart.labels.title =
      "Figure 2: Top Out minus the same-type random baseline (difference of means, 95 % interval)";
  chart.labels.x_label = "heuristic, grouped by algorithm";
  chart.labels.y_label = "difference in share of users";
  chart.faint_meaning = "not a finding";
  chart.flag_meaning = "a finding";
  chart.whisker_meaning = "95 % bootstrap CI";
  for (const auto n : config.sizes) {
    core::BarSeries series;
    series.name = "n = " + std::to_string(n);
    chart.series.push_back(std::move(series));
  }
  // A bar is the difference between the cell's mean and its baseline's, on a linear axis, so a
  // baseline that moved no one needs no special mark and a cell below its baseline points down;
  // its whisker the bootstrap interval of that difference, so a cell carried by a few trials
  // shows an interval reaching across 0; faint unless it is a finding.
  for (const auto& a : config.algorithms) {
    for (const auto h : config.heuristics) {
      if (is_random_baseline(h)) continue;
      chart.categories.push_back(std::string(to_string(h)));
      chart.groups.push_back(a);
      for (std::size_t s = 0; s < config.sizes.size(); ++s) {
        const auto* c = find_cell(summary, a, h, config.sizes[s], Oracle::kTopOut);
        auto& series = chart.series[s];
        const double nan = std::numeric_limits<double>::quiet_NaN();
        std::string note;
        if (c) {
          note = "mean Top Out " + num(c->mean) + " against " + num(c->baseline_mean) +
                 ", rank-sum p " + num(c->p) + ", Holm p " + num(c->p_holm) + ", " +
                 std::to_string(c->trials) + " trials, seed noise floor " + num(c->noise_floor);
        }
        series.values.push_back(c ? c->difference : nan);
        series.low.push_back(c ? c->difference_low : nan);
        series.high.push_back(c ? c->difference_high : nan);
        series.faint.push_back(!(c && survives_correction(*c)));
        series.flagged.push_back(c && survives_correction(*c));
        series.notes.push_back(std::move(note));
      }
    }
  }
  // Fits the report page (1200 px at most): narrower slots rotate their labels instead.
  chart.fit_labels = true;
  chart.labels.width = std::clamp(static_cast<int>(chart.categories.size()) * 40 + 230, 800, 1200);
  return core::render_svg(chart);
}

namespace {

core::Table table3_table(const CampaignSummary& summary) {
  std::vector<std::size_t> sizes;
  std::vector<Heuristic> heuristics;
  for (const auto& t : summary.timing) {
    if (std::find(sizes.begin(), sizes.end(), t.size) == sizes.end()) sizes.push_back(t.size);
    if (!contains(heuristics, t.heuristic)) heuristics.push_back(t.heuristic);
  }
  std::vector<core::Table::Column> columns{{"heuristic", core::Align::kLeft}};
  for (const auto n : sizes) {
    columns.push_back({"n = " + std::to_string(n) + " (ms)", core::Align::kRight});
  }
  core::Table table(std::move(columns),
                    "Table 3 (numbered as in the AAAI-19 paper): mean time to generate a "
                    "modification set (influence precomputed).");
  for (const auto h : heuristics) {
    std::vector<std::string> row{std::string(to_string(h))};
    for (const auto n : sizes) {
      std::string text = "n/a";
      for (const auto& t : summary.timing) {
        if (t.heuristic == h && t.size == n) text = num(t.mean_seconds * 1e3);
      }
      row.push_back(std::move(text));
    }
    table.add_row(std::move(row));
  }
  return table;
}

}  // namespace

std::string table3_markdown(const CampaignSummary& summary) {
  return table3_table(summary).markdown();
}

std::string table3_csv(const CampaignSummary& summary) {
  std::string out = "heuristic,size,runs,mean_ms,max_ms\n";
  for (const auto& t : summary.timing) {
    out += std::string(to_string(t.heuristic)) + "," + std::to_string(t.size) + "," +
           std::to_string(t.runs) + "," + num(t.mean_seconds * 1e3, "") + "," +
           num(t.max_seconds * 1e3, "") + "\n";
  }
  return out;
}

namespace {
struct Table4Row {
  std::string algorithm;
  std::size_t size;
  const CellStats* portfolio;
  const CellStats* random;
};
std::vector<Table4Row> table4_rows(const CampaignConfig& config, const CampaignSummary& summary) {
  std::vector<Table4Row> rows;
  for (const auto& a : config.algorithms) {
    for (const auto n : config.sizes) {
      if (n == 1) continue;  // the paper's Table 4 has n = 10 and 100
      const auto* p = find_cell(summary, a, Heuristic::kAportfolio, n, Oracle::kTopOut);
      const auto* r = find_cell(summary, a, Heuristic::kArand, n, Oracle::kTopOut);
      if (p || r) rows.push_back({a, n, p, r});
    }
  }
  return rows;
}
}  // namespace

namespace {

core::Table table4_table(const CampaignConfig& config, const CampaignSummary& summary) {
  core::Table table({{"algorithm", core::Align::kLeft},
                     {"n", core::Align::kRight},
                     {"APORTFOLIO Top Out", core::Align::kRight},
                     {"ARAND Top Out", core::Align::kRight},
                     {"ratio", core::Align::kRight},
                     {"rank-sum p", core::Align::kRight},
                     {"Holm p", core::Align::kRight},
                     {"BH p", core::Align::kRight},
                     {"trials", core::Align::kRight}},
                    "Table 4 (numbered as in the AAAI-19 paper): APORTFOLIO against the random "
                    "additions ARAND (mean Top Out); rank-sum p "
                    "adjusted for every targeted Top Out comparison of the campaign (Holm; "
                    "Benjamini-Hochberg).");
  for (const auto& r : table4_rows(config, summary)) {
    const auto* p = r.portfolio;
    table.add_row({r.algorithm, std::to_string(r.size), p ? num(p->mean) : "n/a",
                   r.random ? num(r.random->mean) : "n/a", p ? ratio_text(*p) : "n/a",
                   p ? num(p->p) : "n/a", p ? num(p->p_holm) : "n/a", p ? num(p->p_bh) : "n/a",
                   p ? std::to_string(p->trials) : "n/a"});
  }
  return table;
}

}  // namespace

std::string table4_markdown(const CampaignConfig& config, const CampaignSummary& summary) {
  return table4_table(config, summary).markdown();
}

std::string table4_csv(const CampaignConfig& config, const CampaignSummary& summary) {
  std::string out =
      "algorithm,size,aportfolio_top_out,arand_top_out,ratio,p,baseline_zero,p_holm,p_bh,"
      "trials\n";
  for (const auto& r : table4_rows(config, summary)) {
    out += r.algorithm + "," + std::to_string(r.size) + "," +
           (r.portfolio ? num(r.portfolio->mean, "") : "") + "," +
           (r.random ? num(r.random->mean, "") : "") + "," +
           (r.portfolio ? num(r.portfolio->ratio, "") : "") + "," +
           (r.portfolio ? num(r.portfolio->p, "") : "") + "," +
           (r.portfolio && r.portfolio->baseline_zero ? "1" : "0") + "," +
           (r.portfolio ? num(r.portfolio->p_holm, "") : "") + "," +
           (r.portfolio ? num(r.portfolio->p_bh, "") : "") + "," +
           (r.portfolio ? std::to_string(r.portfolio->trials) : "") + "\n";
  }
  return out;
}

namespace {

constexpr std::size_t kMaxRatingColumns = 5;

core::Table configurations_table(const CampaignSummary& summary) {
  std::vector<double> values;
  for (const auto& c : summary.configurations) {
    for (const double v : c.rating_values) {
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
  }
  std::sort(values.begin(), values.end());
  std::vector<core::Table::Column> columns{{"configuration", core::Align::kLeft},
                                           {"full spec", core::Align::kLeft}};
  // A column per value while they are few (whole stars); half stars and finer grids hold one
  // column of "r: I_R(r)" pairs, so the table fits the page.
  const bool one_column = values.size() > kMaxRatingColumns;
  if (one_column) {
    columns.push_back({"I_R(r) per rating value r", core::Align::kLeft});
  } else {
    for (const double v : values) columns.push_back({"I_R(" + num(v) + ")", core::Align::kRight});
  }
  // Accuracy columns only when some configuration's accuracy was measured (--accuracy or a
  // sweep).
  const bool accuracy = std::any_of(summary.configurations.begin(), summary.configurations.end(),
                                    [](const ConfigurationProfile& c) { return c.has_accuracy; });
  if (accuracy) {
    columns.push_back({"RMSE", core::Align::kRight});
    columns.push_back({"MAE", core::Align::kRight});
  }
  core::Table table(std::move(columns),
                    std::string("Configurations: I_R(r) = number of (user, recommended item) "
                                "pairs whose item's mean rating lies within 0.05 of r") +
                        (accuracy ? "; RMSE/MAE by cross-validation where measured." : "."));
  for (const auto& c : summary.configurations) {
    std::vector<std::string> row{c.algorithm, c.spec};
    std::string pairs;
    for (const double v : values) {
      std::string text = "n/a";
      for (std::size_t k = 0; k < c.rating_values.size(); ++k) {
        if (c.rating_values[k] == v) text = std::to_string(c.rating_influence[k]);
      }
      if (one_column) {
        pairs += (pairs.empty() ? "" : ", ") + num(v) + ": " + text;
      } else {
        row.push_back(std::move(text));
      }
    }
    if (one_column) row.push_back(std::move(pairs));
    if (accuracy) {
      row.push_back(c.has_accuracy ? num(c.rmse) : "n/a");
      row.push_back(c.has_accuracy ? num(c.mae) : "n/a");
    }
    table.add_row(std::move(row));
  }
  return table;
}

}  // namespace

std::string configurations_markdown(const CampaignSummary& summary) {
  return configurations_table(summary).markdown();
}

std::vector<Sweep> find_sweeps(const CampaignSummary& summary) {
  std::map<std::string, std::vector<recsys::RecommenderSpec>> by_name;
  std::vector<std::string> order;
  for (const auto& c : summary.configurations) {
    auto spec = recsys::parse_recommender_spec(c.spec);
    if (!by_name.count(spec.name)) order.push_back(spec.name);
    by_name[spec.name].push_back(std::move(spec));
  }
  std::vector<Sweep> sweeps;
  for (const auto& name : order) {
    const auto& specs = by_name[name];
    if (specs.size() < 2) continue;
    std::vector<std::size_t> varying;
    for (std::size_t k = 0; k < specs[0].values.size(); ++k) {
      for (const auto& s : specs) {
        if (s.values[k].second != specs[0].values[k].second) {
          varying.push_back(k);
          break;
        }
      }
    }
    if (varying.size() != 1) continue;
    std::vector<std::pair<double, std::string>> points;
    bool numeric = true;
    for (const auto& s : specs) {
      const std::string& text = s.values[varying[0]].second;
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      numeric = numeric && end != text.c_str() && *end == 0;
      points.emplace_back(v, s.identity());
    }
    if (!numeric) continue;
    std::sort(points.begin(), points.end());
    Sweep sw;
    sw.name = name;
    sw.key = specs[0].values[varying[0]].first;
    for (const auto& [v, a] : points) {
      sw.values.push_back(v);
      sw.algorithms.push_back(a);
    }
    sweeps.push_back(std::move(sw));
  }
  return sweeps;
}

namespace {

core::Table sweep_table(const CampaignSummary& summary, const Sweep& sweep) {
  core::Table table({{sweep.key, core::Align::kRight},
                     {"configuration", core::Align::kLeft},
                     {"APORTFOLIO n=10", core::Align::kRight},
                     {"APORTFOLIO n=100", core::Align::kRight},
                     {"ARAND n=10", core::Align::kRight},
                     {"ARAND n=100", core::Align::kRight},
                     {"RMSE", core::Align::kRight},
                     {"MAE", core::Align::kRight}},
                    "Sweep of " + sweep.name + " over " + sweep.key +
                        ": mean Top Out (instability) and cross-validated accuracy.");
  for (std::size_t k = 0; k < sweep.values.size(); ++k) {
    const std::string& a = sweep.algorithms[k];
    const auto* c = find_configuration(summary, a);
    const bool accuracy = c && c->has_accuracy;
    table.add_row({num(sweep.values[k]), a,
                   num(top_out_mean(summary, a, Heuristic::kAportfolio, 10)),
                   num(top_out_mean(summary, a, Heuristic::kAportfolio, 100)),
                   num(top_out_mean(summary, a, Heuristic::kArand, 10)),
                   num(top_out_mean(summary, a, Heuristic::kArand, 100)),
                   accuracy ? num(c->rmse) : "n/a", accuracy ? num(c->mae) : "n/a"});
  }
  return table;
}

}  // namespace

std::string sweep_markdown(const CampaignSummary& summary, const Sweep& sweep) {
  return sweep_table(summary, sweep).markdown();
}

SweepCharts sweep_svgs(const CampaignSummary& summary, const Sweep& sweep) {
  core::LineChart left, right;
  left.labels.title = sweep.name + ": instability vs " + sweep.key;
  left.labels.x_label = sweep.key;
  left.labels.y_label = "mean Top Out";
  right.labels.title = sweep.name + ": accuracy vs " + sweep.key;
  right.labels.x_label = sweep.key;
  right.labels.y_label = "error (rating points)";
  left.labels.width = right.labels.width = 560;
  const std::pair<Heuristic, std::size_t> lines[] = {{Heuristic::kAportfolio, 10},
                                                     {Heuristic::kAportfolio, 100},
                                                     {Heuristic::kArand, 10},
                                                     {Heuristic::kArand, 100}};
  for (const auto& [h, n] : lines) {
    core::LineSeries s{std::string(to_string(h)) + " n=" + std::to_string(n), {}, {}};
    for (std::size_t k = 0; k < sweep.values.size(); ++k) {
      const double y = top_out_mean(summary, sweep.algorithms[k], h, n);
      if (std::isnan(y)) continue;
      s.x.push_back(sweep.values[k]);
      s.y.push_back(y);
    }
    if (!s.x.empty()) left.series.push_back(std::move(s));
  }
  core::LineSeries rmse{"RMSE", {}, {}}, mae{"MAE", {}, {}};
  for (std::size_t k = 0; k < sweep.values.size(); ++k) {
    const auto* c = find_configuration(summary, sweep.algorithms[k]);
    if (!c || !c->has_accuracy) continue;
    rmse.x.push_back(sweep.values[k]);
    rmse.y.push_back(c->rmse);
    mae.x.push_back(sweep.values[k]);
    mae.y.push_back(c->mae);
  }
  if (!rmse.x.empty()) {
    right.series.push_back(std::move(rmse));
    right.series.push_back(std::move(mae));
  }
  SweepCharts charts;
  if (!left.series.empty()) charts.instability = core::render_svg(left);
  if (!right.series.empty()) charts.accuracy = core::render_svg(right);
  return charts;
}

std::string cells_csv(const CampaignSummary& summary) {
  std::string out =
      "algorithm,heuristic,size,oracle,trials,mean,sd,baseline,baseline_mean,ratio,p,"
      "baseline_zero,mean_set_size,p_holm,p_bh,ci_low,ci_high,q1,q3,p_exact,superiority,"
      "difference,difference_low,difference_high,p_welch,p_welch_holm,noise_floor,"
      "within_noise\n";
  for (const auto& c : summary.cells) {
    out += core::csv_field(c.algorithm) + "," + std::string(to_string(c.heuristic)) + "," +
           std::to_string(c.size) + "," + std::string(to_string(c.oracle)) + "," +
           std::to_string(c.trials) + "," + num(c.mean, "") + "," + num(c.sd, "") + "," +
           (c.baseline ? std::string(to_string(*c.baseline)) : "") + "," +
           num(c.baseline_mean, "") + "," + num(c.ratio, "") + "," + num(c.p, "") + "," +
           (c.baseline_zero ? "1" : "0") + "," + num(c.mean_set_size, "") + "," +
           num(c.p_holm, "") + "," + num(c.p_bh, "") + "," + num(c.ci_low, "") + "," +
           num(c.ci_high, "") + "," + num(c.q1, "") + "," + num(c.q3, "") + "," +
           (c.p_exact ? "1" : "0") + "," + num(c.superiority, "") + "," + num(c.difference, "") +
           "," + num(c.difference_low, "") + "," + num(c.difference_high, "") + "," +
           num(c.p_welch, "") + "," + num(c.p_welch_holm, "") + "," + num(c.noise_floor, "") + "," +
           (c.within_noise ? "1" : "0") + "\n";
  }
  return out;
}

namespace {

// Every cell of one oracle: mean over trials with its 95 % t-interval, ratio and difference to
// the random baseline, the rank-sum test with its adjustments, Welch's Holm p for comparison,
// and the seed noise floor.
core::Table oracle_table(const CampaignConfig& config, const CampaignSummary& summary,
                         Oracle oracle) {
  const std::string name(title(oracle));
  core::Table table({{"algorithm", core::Align::kLeft},
                     {"heuristic", core::Align::kLeft},
                     {"n", core::Align::kRight},
                     {"trials", core::Align::kRight},
                     {"mean", core::Align::kRight},
                     {"95 % CI", core::Align::kRight},
                     {"ratio", core::Align::kRight},
                     {"difference [95 % CI]", core::Align::kRight},
                     {"P(above)", core::Align::kRight},
                     {"rank-sum p", core::Align::kRight},
                     {"Holm p", core::Align::kRight},
                     {"BH p", core::Align::kRight},
                     {"Welch Holm p", core::Align::kRight},
                     {"min. detectable", core::Align::kRight},
                     {"noise floor", core::Align::kRight},
                     {"finding", core::Align::kLeft}},
                    name +
                        " per cell: mean over trials with its 95 % t-interval; ratio and "
                        "difference of means (bootstrap interval) to the same-type random "
                        "baseline; P(above): the chance that a trial of the cell moves more "
                        "than one of the baseline (ties count half); the rank-sum test's p and "
                        "p adjusted for every targeted " +
                        name +
                        " comparison of the campaign (Holm; Benjamini-Hochberg); Welch's "
                        "t-test's Holm p for comparison; the smallest difference the design "
                        "detects with 80 % power after the correction (\"none\": too few "
                        "trials for any); the mean against the seed noise floor. A finding is a "
                        "cell above its baseline with Holm p < 0.05.");
  for (const auto& a : config.algorithms) {
    for (const auto h : config.heuristics) {
      for (const auto n : config.sizes) {
        const auto* c = find_cell(summary, a, h, n, oracle);
        if (!c) continue;
        table.add_row({a, std::string(to_string(h)), std::to_string(n), std::to_string(c->trials),
                       num(c->mean), interval_text(*c), ratio_text(*c), difference_text(*c),
                       num(c->superiority), num(c->p), num(c->p_holm), num(c->p_bh),
                       num(c->p_welch_holm), std::isinf(c->mde) ? "none" : num(c->mde),
                       noise_text(*c),
                       is_random_baseline(h)     ? "baseline"
                       : survives_correction(*c) ? "yes"
                                                 : ""});
      }
    }
  }
  return table;
}

// The cells that survive the correction, every oracle (the headline's oracle first), or a line
// saying none do.
core::Table findings_table(const CampaignConfig& config, const CampaignSummary& summary,
                           Oracle headline) {
  std::vector<Oracle> order{headline};
  for (const auto o : kAllOracles) {
    if (o != headline) order.push_back(o);
  }
  std::string counts;
  for (const auto o : order) {
    const PowerCheck power = oracle_power(summary, o);
    counts += (counts.empty() ? "" : "; ") + std::string(title(o)) + " " +
              std::to_string(power.findings) + " of " + std::to_string(power.targeted) + " (" +
              std::to_string(power.raw) + " before the correction, " + std::to_string(power.bh) +
              " after Benjamini-Hochberg's)";
  }
  core::Table table(
      {{"oracle", core::Align::kLeft},
       {"algorithm", core::Align::kLeft},
       {"heuristic", core::Align::kLeft},
       {"n", core::Align::kRight},
       {"trials", core::Align::kRight},
       {"mean", core::Align::kRight},
       {"95 % CI", core::Align::kRight},
       {"baseline", core::Align::kLeft},
       {"ratio", core::Align::kRight},
       {"difference [95 % CI]", core::Align::kRight},
       {"P(above)", core::Align::kRight},
       {"rank-sum p", core::Align::kRight},
       {"Holm p", core::Align::kRight},
       {"noise floor", core::Align::kRight}},
      "Heuristics that moved users' top-" + std::to_string(config.k) +
          " lists more than the same number of random modifications, at p < 0.05 (rank-sum "
          "test) after Holm's correction for each oracle's comparisons: " +
          counts + ".");
  for (const auto o : order) {
    for (const auto& a : config.algorithms) {
      for (const auto h : config.heuristics) {
        for (const auto n : config.sizes) {
          const auto* c = find_cell(summary, a, h, n, o);
          if (!c || is_random_baseline(h) || !survives_correction(*c)) continue;
          table.add_row({std::string(title(o)), a, std::string(to_string(h)), std::to_string(n),
                         std::to_string(c->trials), num(c->mean), interval_text(*c),
                         std::string(to_string(*c->baseline)), ratio_text(*c), difference_text(*c),
                         num(c->superiority), num(c->p), num(c->p_holm), noise_text(*c)});
        }
      }
    }
  }
  return table;
}

// A word for a POSIX shell: as it is when it holds only safe characters, else in single quotes.
std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || std::strchr("_-./:=,+@%", ch);
  });
  if (safe) return word;
  std::string out = "'";
  for (const char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// Failed runs per cell (a program that failed), with the first reason.
core::Table failed_table(const CampaignSummary& summary) {
  core::Table table({{"algorithm", core::Align::kLeft},
                     {"cell", core::Align::kLeft},
                     {"failed runs", core::Align::kRight},
                     {"first reason", core::Align::kLeft},
                     {"end of its stderr", core::Align::kLeft}},
                    "Runs whose recommender failed; they are not in the statistics above and "
                    "the next campaign on the store retries them.");
  for (const auto& f : summary.failed) {
    // A program's reason and stderr may hold any byte: control bytes are shown escaped.
    table.add_row({core::escape_control(f.algorithm),
                   f.noise ? std::string("noise floor")
                           : std::string(to_string(f.heuristic)) + " n=" + std::to_string(f.size),
                   std::to_string(f.failed), core::escape_control(f.reason),
                   core::escape_control(f.stderr_tail)});
  }
  return table;
}

core::Table noise_table(const CampaignSummary& summary) {
  std::vector<core::Table::Column> columns{{"algorithm", core::Align::kLeft},
                                           {"retrainings", core::Align::kRight}};
  for (const auto o : kAllOracles)
    columns.push_back({std::string(to_string(o)), core::Align::kRight});
  core::Table table(std::move(columns), "Noise floor: the same data retrained with another seed.");
  for (const auto& f : summary.noise_floor) {
    std::vector<std::string> row{f.algorithm, std::to_string(f.trials)};
    for (std::size_t o = 0; o < kNumOracles; ++o) row.push_back(num(f.mean[o]));
    table.add_row(std::move(row));
  }
  return table;
}

}  // namespace

std::string campaign_headline_html(const recsys::Ratings& data, const CampaignConfig& config,
                                   const CampaignSummary& summary, Oracle oracle) {
  const double users = static_cast<double>(data.n_users());
  const std::string name(title(oracle));
  const bool top_out = oracle == Oracle::kTopOut;
  const auto verb = [](Heuristic h) {
    switch (modification_kind(h)) {
      case recsys::Modification::Kind::kAdd:
        return "adding";
      case recsys::Modification::Kind::kRemove:
        return "removing";
      case recsys::Modification::Kind::kChange:
        break;
    }
    return "changing";
  };
  const auto random_kind = [](Heuristic h) {
    switch (modification_kind(h)) {
      case recsys::Modification::Kind::kAdd:
        return "additions";
      case recsys::Modification::Kind::kRemove:
        return "removals";
      case recsys::Modification::Kind::kChange:
        break;
    }
    return "changes";
  };
  // Mean Top Out as users: "about 2 of 60 users (2.5 %)" (a mean over trials), "none".
  const auto people = [&](double mean) {
    const double n = mean * users;
    if (n < 0.005) return std::string("none of the ") + std::to_string(data.n_users()) + " users";
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s%ld of %zu users (%.1f %%)",
                  std::fabs(n - std::round(n)) < 1e-9 ? "" : "about ", std::lround(n),
                  data.n_users(), 100.0 * mean);
    return std::string(buf);
  };
  // What a mean of this oracle did, in words.
  const auto moved = [&](double mean) {
    if (top_out) return "pushed the top recommendation of " + people(mean);
    return "moved users' top-" + std::to_string(config.k) + " lists by a mean " + name +
           " distance of " + num(mean);
  };
  // Per algorithm, the cell (non-random heuristic, size) that moved the most among those that
  // survive Holm's correction; only these are quoted.
  const PowerCheck power = oracle_power(summary, oracle);
  std::vector<const CellStats*> best;
  std::vector<std::string> without;  // algorithms with no surviving cell
  for (const auto& a : config.algorithms) {
    const CellStats* top = nullptr;
    for (const auto& c : summary.cells) {
      if (c.algorithm != a || c.oracle != oracle || is_random_baseline(c.heuristic) ||
          !survives_correction(c)) {
        continue;
      }
      if (!top || c.mean > top->mean) top = &c;
    }
    if (top) {
      best.push_back(top);
    } else {
      without.push_back(a);
    }
  }
  // Algorithms whose reseed alone moves at least as much as every modification set did: their
  // instability is the model's own.
  std::string noise_text;
  for (const auto& f : summary.noise_floor) {
    const double floor = f.mean[static_cast<std::size_t>(oracle)];
    if (!(floor > 0)) continue;
    const CellStats* largest = nullptr;
    for (const auto& c : summary.cells) {
      if (c.algorithm == f.algorithm && c.oracle == oracle &&
          (!largest || c.mean > largest->mean)) {
        largest = &c;
      }
    }
    if (!largest || largest->mean > floor) continue;
    noise_text += "<p class=\"headline\">On " + core::xml_escape(f.algorithm) +
                  ", retraining on the unchanged data with another seed " + moved(floor) +
                  " (mean of " + std::to_string(f.trials) + " retraining" +
                  (f.trials == 1 ? "" : "s") + "), at least as much as any set of modifications (" +
                  "largest: " + std::string(to_string(largest->heuristic)) +
                  " n = " + std::to_string(largest->size) + ", " + num(largest->mean) +
                  "): its instability is the model's own, not the data's.</p>\n";
  }
  const std::string counts = std::to_string(power.raw) + " of " + std::to_string(power.targeted) +
                             " targeted cells reach p < 0.05 before the correction, " +
                             std::to_string(power.holm) + " after it";
  if (best.empty()) {
    if (power.targeted == 0) {
      return "<p class=\"headline\">No heuristic cell with a " + name +
             " comparison against its random baseline: nothing to summarise.</p>\n" + noise_text;
    }
    return "<p class=\"headline\">No heuristic moved " +
           (top_out ? "more users' top item out of their top-" + std::to_string(config.k) + " list"
                    : "users' top-" + std::to_string(config.k) + " lists further (" + name + ")") +
           " than the same number of random modifications, once the rank-sum test's p-values "
           "are corrected for the campaign's " +
           std::to_string(power.targeted) + " comparisons (Holm, 5 %): " + counts +
           ". The differences in Figure 2 and the ratios in the tables are not findings.</p>\n" +
           noise_text;
  }
  const CellStats* lead = best.front();
  for (const auto* c : best) {
    if (c->mean > lead->mean) lead = c;
  }
  const auto sentence = [&](const CellStats& c, bool bold) {
    const std::string b0 = bold ? "<b>" : "", b1 = bold ? "</b>" : "";
    std::string text = "on " + b0 + core::xml_escape(c.algorithm) + b1 + ", " + verb(c.heuristic) +
                       " " + std::to_string(c.size) + " rating" + (c.size == 1 ? "" : "s") +
                       " chosen by " + b0 + std::string(to_string(c.heuristic)) + b1 + " " +
                       moved(c.mean);
    if (!std::isnan(c.ci_low)) {
      char buf[64];
      if (top_out) {
        std::snprintf(buf, sizeof buf, "; 95 %% CI %.1f–%.1f %%",
                      100.0 * std::clamp(c.ci_low, 0.0, 1.0),
                      100.0 * std::clamp(c.ci_high, 0.0, 1.0));
        text.insert(text.size() - 1, buf);  // inside the parenthesis of people()
      } else {
        std::snprintf(buf, sizeof buf, " (95 %% CI %.3g–%.3g)", std::clamp(c.ci_low, 0.0, 1.0),
                      std::clamp(c.ci_high, 0.0, 1.0));
        text += buf;
      }
    }
    if (top_out) text += " out of their top-" + std::to_string(config.k) + " list";
    const std::string random = " random " + std::string(random_kind(*c.baseline)) + " (" +
                               std::string(to_string(*c.baseline)) + ")";
    if (c.baseline_zero) {
      text += ", where as many" + random + " moved none";
    } else {
      text += ", " + num(c.ratio) + (top_out ? " times as many as" : " times as much as") +
              " the same number of" + random;
    }
    text += " (difference " + difference_text(c) + "; a trial moved more than a random one with " +
            "probability " + num(c.superiority) + "; rank-sum p = " + num(c.p) +
            ", Holm-adjusted " + num(c.p_holm) + ", " + std::to_string(c.trials) + " trials)";
    return text;
  };
  std::string out = "<p class=\"headline\">Largest effect on " + name +
                    " that survives the correction for " + std::to_string(power.targeted) +
                    (power.targeted == 1 ? " comparison: " : " comparisons: ") +
                    sentence(*lead, true);
  for (const auto& f : summary.noise_floor) {
    const double floor = f.mean[static_cast<std::size_t>(oracle)];
    if (f.algorithm == lead->algorithm && std::isfinite(floor)) {
      out += "; retraining " + core::xml_escape(f.algorithm) +
             " on unchanged data with another seed " +
             (top_out ? "moves " + people(floor) : "moves the lists by " + num(floor));
    }
  }
  out += ".</p>\n";
  if (best.size() + without.size() > 1) {
    out += "<ul class=\"headline-list\">\n";
    for (const auto* c : best) out += "<li>" + sentence(*c, false) + ".</li>\n";
    for (const auto& a : without) {
      out += "<li>on " + core::xml_escape(a) +
             ", no heuristic's effect survives the correction.</li>\n";
    }
    out += "</ul>\n";
  }
  return out + noise_text;
}

namespace {

// The modification sets an earlier campaign saved under DIR/mods: those its DIR/summary.json
// lists ("exceeding_delta.files"). Empty when there is no readable summary.
std::vector<std::string> previous_sets(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  const fs::path summary = fs::path(dir) / "summary.json";
  std::error_code ec;
  if (!fs::is_regular_file(summary, ec)) return files;
  try {
    const auto j = core::read_json_file(summary.string());
    for (const auto& f : j.at("exceeding_delta").at("files")) {
      const std::string name = f.get<std::string>();
      // Only a plain name directly in mods/, as the report writes them.
      if (!name.starts_with("mods/") || !name.ends_with(".json")) continue;
      const std::string base = name.substr(5);
      if (base.find('/') != std::string::npos || base.starts_with(".")) continue;
      files.push_back((fs::path(dir) / name).lexically_normal().string());
    }
  } catch (const std::exception&) {  // not a report's summary: remove nothing
    files.clear();
  }
  return files;
}

// A reused report directory: the modification sets the earlier campaign wrote (`previous`, from its
// summary.json) that this report does not list are removed, so mods/ holds exactly the sets of
// summary.json. Every other file in DIR and DIR/mods (the user's own) is left alone.
void remove_stale_sets(const std::vector<std::string>& previous,
                       const std::vector<std::string>& written) {
  namespace fs = std::filesystem;
  std::set<std::string> keep;
  for (const auto& w : written) keep.insert(fs::path(w).lexically_normal().string());
  for (const auto& p : previous) {
    std::error_code ec;
    if (!keep.contains(p) && fs::is_regular_file(fs::symlink_status(p, ec))) fs::remove(p, ec);
  }
}

}  // namespace

const std::vector<std::string>& campaign_report_files() {
  static const std::vector<std::string> files = {
      "summary.json", "cells.csv",  "top_out.md",  "findings.md", "figure2.svg",
      "table3.md",    "table3.csv", "table4.md",   "table4.csv",  "configurations.md",
      "sweep-*.svg",  "sweep.md",   "report.html", "mods/*.json"};
  return files;
}

std::vector<std::string> write_campaign_report(const std::string& dir, const recsys::Ratings& data,
                                               const CampaignConfig& config,
                                               const CampaignSummary& summary,
                                               const std::vector<SavedModificationSet>& sets,
                                               const ReportOptions& options) {
  namespace fs = std::filesystem;
  const auto previous = previous_sets(dir);
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "mods", ec);
  if (ec) {
    throw core::IoError(core::SourceLocation(dir),
                        "cannot create output directory: " + ec.message());
  }
  std::vector<std::string> written;
  const auto put = [&](const std::string& name, const std::string& content) {
    const std::string path = (fs::path(dir) / name).string();
    core::write_file_atomically(path, content);
    written.push_back(path);
  };
  std::vector<std::string> mod_files;
  for (const auto& set : sets) {
    const std::string name = "mods/" + modification_set_file_name(set.key);
    put(name, to_json_text(set, data));
    mod_files.push_back(name);
  }
  const std::string svg = figure2_svg(config, summary);
  put("summary.json", summary_json(config, summary, options, mod_files));
  put("cells.csv", cells_csv(summary));
  put("figure2.svg", svg);
  const core::Table table3 = table3_table(summary);
  const core::Table table4 = table4_table(config, summary);
  const core::Table configurations = configurations_table(summary);
  put("table3.md", table3.markdown());
  put("table3.csv", table3_csv(summary));
  put("table4.md", table4.markdown());
  put("table4.csv", table4_csv(config, summary));
  put("configurations.md", configurations.markdown());
  const core::Table findings = findings_table(config, summary, options.headline_oracle);
  const std::string warning =
      low_power_warning(oracle_power(summary, options.headline_oracle, options.min_effect));
  std::string oracle_html;
  for (const auto o : kAllOracles) {
    const core::Table table = oracle_table(config, summary, o);
    std::string file(to_string(o));
    std::replace(file.begin(), file.end(), '-', '_');
    put(file + ".md", table.markdown());
    oracle_html += "<h2>" + std::string(title(o)) + " per cell</h2>\n<div class=\"wide\">" +
                   table.html() + "</div>\n";
  }
  put("findings.md",
      (findings.rows().empty() ? "None. " + findings.caption() + "\n" : findings.markdown()) +
          (warning.empty() ? "" : "\n" + warning + "\n"));
  std::string sweep_html;
  std::string sweep_md;
  for (const auto& sw : find_sweeps(summary)) {
    const core::Table table = sweep_table(summary, sw);
    const SweepCharts charts = sweep_svgs(summary, sw);
    sweep_md += table.markdown() + "\n";
    const std::string stem = "sweep-" + sw.name + "-" + sw.key;
    if (!charts.instability.empty()) put(stem + "-instability.svg", charts.instability);
    if (!charts.accuracy.empty()) put(stem + "-accuracy.svg", charts.accuracy);
    sweep_html += std::string("<h3>") + core::xml_escape(sw.name + " over " + sw.key) + "</h3>\n" +
                  charts.instability + charts.accuracy + "\n" + table.html();
  }
  if (!sweep_md.empty()) put("sweep.md", sweep_md);

  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>assay rec campaign</title>\n"
      "<style>body{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em}"
      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;"
      "text-align:left;overflow-wrap:anywhere}th{overflow-wrap:normal;hyphens:none}"
      ".wide td{overflow-wrap:normal}.wide td.num{white-space:nowrap}"
      ".num{text-align:right}.wide{overflow-x:auto;max-width:100%}caption{caption-side:bottom;"
      "text-align:left;color:#"
      "555}"
      "svg{max-width:100%;height:auto}.headline{font-size:1.25em;line-height:1.4}"
      ".warning{border-left:4px solid #e15759;padding:4px 10px;background:#fdf0f0}</style>"
      "</head><body>\n<h1>Recommender stability campaign</h1>\n" +
      campaign_headline_html(data, config, summary, options.headline_oracle) +
      (warning.empty() ? std::string()
                       : "<p class=\"warning\">" + core::xml_escape(warning) + "</p>\n") +
      "<p>Data: " + core::xml_escape(config.data_description) + "; seed " +
      std::to_string(config.seed) + "; top-" + std::to_string(config.k) + "; " +
      std::to_string(summary.n_runs) + " runs" +
      (summary.complete ? "" : " (incomplete campaign)") + ".</p>\n<h2>Configurations</h2>\n" +
      configurations.html() +
      (sweep_html.empty() ? std::string() : "<h2>Configuration sweeps</h2>\n" + sweep_html) +
      "<h2>Findings</h2>\n" +
      (findings.rows().empty() ? "<p>None. " + core::xml_escape(findings.caption()) + "</p>\n"
                               : "<div class=\"wide\">" + findings.html() + "</div>\n") +
      "<h2>Figure 2</h2>\n" + svg +
      "\n<p>A bar is a cell's mean Top Out minus its random baseline's (the share of users whose "
      "top item the heuristic moved beyond what as many random modifications moved; below 0: "
      "fewer), its whisker the 95 % bootstrap interval of that difference, so a cell carried by "
      "a few trials shows a wide interval; faint bars are not findings (the rank-sum test's "
      "Holm p &ge; 0.05) and a star marks each finding, however short its bar. Each bar's "
      "tooltip gives both means, the p-values and the seed noise "
      "floor.</p>"
      "\n" +
      oracle_html + "<h2>Noise floor</h2>\n" + noise_table(summary).html() +
      (summary.failed.empty() ? std::string()
                              : "<h2>Failed runs</h2>\n" + failed_table(summary).html()) +
      "<h2>Table 3 (the paper's numbering): set generation time</h2>\n" + table3.html() +
      "<h2>Table 4 (the paper's numbering): APORTFOLIO against ARAND</h2>\n" + table4.html() +
      (options.save_all ? std::string("<h2>Modification sets (every run)</h2>\n<p>")
                        : "<h2>Sets exceeding δ = " + num(options.delta) + " (" +
                              std::string(to_string(options.delta_oracle)) + ")</h2>\n<p>") +
      std::to_string(mod_files.size()) + " saved under mods/" +
      (mod_files.empty()
           ? std::string(".</p>\n")
           : "; replay the first with <code>" +
                 core::xml_escape("assay rec replay --data " +
                                  shell_quote(config.data_description) + " --mods " +
                                  shell_quote((fs::path(dir) / mod_files.front()).string())) +
                 "</code> (it retrains the set's configuration with its seed and lists the users "
                 "whose top-" +
                 std::to_string(config.k) +
                 " changed), and write the data it modified with <code>" +
                 core::xml_escape("assay rec export --data " +
                                  shell_quote(config.data_description) + " --mods " +
                                  shell_quote((fs::path(dir) / mod_files.front()).string()) +
                                  " --out modified.csv") +
                 "</code>.</p>\n") +
      "</body></html>\n";
  put("report.html", html);
  remove_stale_sets(previous, written);
  return written;
}

}  // namespace assay::stability
