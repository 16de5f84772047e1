#include "stability/campaign_request.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "recsys/accuracy.h"
#include "recsys/command_recommender.h"
#include "recsys/external_recommender.h"
#include "recsys/recommender_spec.h"
#include "recsys/spec_check.h"

namespace assay::stability {
namespace {

// "KEY=V1,V2,...": every spec once per value (a program's configurations are given whole).
std::vector<std::string> swept(const std::vector<std::string>& specs, const std::string& sweep) {
  const auto eq = sweep.find('=');
  const std::string values = sweep.substr(eq == std::string::npos ? sweep.size() : eq + 1);
  if (eq == std::string::npos || eq == 0 || values.empty() ||
      ("," + values + ",").find(",,") != std::string::npos) {
    throw core::UsageError("sweep: expected KEY=V1,V2,... with no empty value, got '" + sweep +
                           "'");
  }
  if (specs.empty()) throw core::UsageError("a sweep varies the algorithms given: none were");
  const std::string key = sweep.substr(0, eq);
  std::vector<std::string> out;
  for (const auto& s : specs) {
    if (recsys::is_command_spec(s)) {
      throw core::UsageError("a sweep varies a built-in algorithm's key; " + s +
                             " is a program (give each of its configurations whole)");
    }
    for (std::size_t start = 0;;) {
      const auto comma = values.find(',', start);
      out.push_back(s + ":" + key + "=" + values.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

void check_count(std::size_t value, std::size_t min, const char* name) {
  if (value < min) {
    throw core::UsageError(std::string(name) + ": expected at least " + std::to_string(min) +
                           ", got " + std::to_string(value));
  }
}

void check_nonnegative(double value, const char* name) {
  if (!std::isfinite(value) || value < 0) {
    throw core::UsageError(std::string(name) + ": expected a finite number >= 0, got " +
                           std::to_string(value));
  }
}

}  // namespace

CampaignPlan plan_campaign(const CampaignRequest& r) {
  check_count(r.trials, 1, "trials");
  check_count(r.threads, 1, "threads");
  check_count(r.k, 1, "k");
  check_count(r.folds, 2, "folds");
  check_nonnegative(r.delta, "delta");
  check_nonnegative(r.min_effect, "min_effect");
  CampaignPlan plan;
  auto& config = plan.config;
  const auto specs = r.sweep.empty() ? r.algorithms : swept(r.algorithms, r.sweep);
  if (!specs.empty()) {
    // Normalised specs name the configurations (the store's rows, the seeds, the report); two
    // spellings of one configuration are one.
    config.algorithms.clear();
    for (const auto& a : specs) {
      const std::string id = recsys::normalize_recommender_spec(a);
      for (const auto& seen : config.algorithms) {
        if (seen == id) throw core::UsageError("algorithms: " + id + " named twice");
      }
      config.algorithms.push_back(id);
    }
  }
  if (!r.heuristics.empty()) {
    config.heuristics.clear();
    for (const auto& h : r.heuristics) config.heuristics.push_back(parse_heuristic(h));
  }
  if (!r.sizes.empty()) config.sizes = r.sizes;
  if (!r.portfolio.empty()) {
    config.heuristic_options.portfolio.clear();
    for (const auto& h : r.portfolio)
      config.heuristic_options.portfolio.push_back(parse_heuristic(h));
  }
  config.trials = r.trials;
  config.seed = r.seed;
  config.n_threads = r.threads;
  config.k = r.k;
  config.noise_trials = r.noise_trials;
  config.data_description = r.data_description;
  config.input_files = r.input_files;
  config.stop_after = r.stop_after;
  config.shard = r.shard;
  config.merge_from = r.merge;
  config.progress = r.progress;
  plan.report.delta = r.delta;
  plan.report.delta_oracle = parse_oracle(r.delta_oracle);
  plan.report.headline_oracle = parse_oracle(r.headline_oracle);
  plan.report.min_effect = r.min_effect;
  plan.report.save_all = r.save_all;
  for (const auto& a : config.algorithms) recsys::check_recommender_spec(a);
  // Accuracy: asked for, or a sweep (two configurations of one algorithm) to put it beside.
  // (Programs and objects give no scores: two of them are no sweep.)
  plan.accuracy = r.accuracy;
  std::vector<std::string> names;
  for (const auto& a : config.algorithms) {
    if (recsys::is_command_spec(a) || recsys::is_external_spec(a)) continue;
    const auto name = recsys::parse_recommender_spec(a).name;
    plan.accuracy = plan.accuracy || std::find(names.begin(), names.end(), name) != names.end();
    names.push_back(name);
  }
  plan.folds = r.folds;
  return plan;
}

CampaignOutcome run_campaign_plan(const CampaignPlan& plan, const recsys::Ratings& data,
                                  CampaignStore& store, const std::string& out,
                                  const std::function<void(const std::string&)>& on_accuracy) {
  const auto& config = plan.config;
  CampaignOutcome o;
  o.results = run_campaign(data, config, store);
  o.summary = analyse_campaign(config, o.results);
  if (plan.accuracy && o.results.complete) {
    for (auto& c : o.summary.configurations) {
      if (recsys::is_command_spec(c.algorithm) || recsys::is_external_spec(c.algorithm))
        continue;  // a program or an object gives no scores
      if (on_accuracy) on_accuracy(c.algorithm);
      const auto acc = recsys::cross_validated_accuracy(data, c.algorithm, plan.folds, config.seed,
                                                        config.n_threads);
      c.has_accuracy = true;
      c.rmse = acc.rmse;
      c.mae = acc.mae;
      c.folds = acc.folds;
    }
  }
  const auto& report = plan.report;
  std::vector<std::string> mod_files;
  if (!out.empty()) {
    const auto sets =
        sets_exceeding(data, config, o.results,
                       report.save_all ? -std::numeric_limits<double>::infinity() : report.delta,
                       report.delta_oracle);
    o.n_sets = sets.size();
    o.written = write_campaign_report(out, data, config, o.summary, sets, report);
    for (const auto& w : o.written) {
      const auto at = w.rfind("/mods/");
      if (at != std::string::npos) mod_files.push_back(w.substr(at + 1));
    }
  }
  o.summary_json = summary_json(config, o.summary, report, mod_files);
  return o;
}

}  // namespace assay::stability
