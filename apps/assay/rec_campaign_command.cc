// `assay rec campaign`: the AAAI-19 study (algorithms × heuristics × sizes × trials) in one
// command, resumable through a SQLite store, with the report written into --out.
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "core/error.h"
#include "core/excerpt.h"
#include "core/interrupt.h"
#include "core/progress.h"
#include "option_checks.h"
#include "rec_options.h"
#include "recsys/accuracy.h"
#include "recsys/command_recommender.h"
#include "recsys/data_spec.h"
#include "recsys/recommender_spec.h"
#include "shard_options.h"
#include "stability/campaign.h"
#include "stability/campaign_analysis.h"
#include "stability/campaign_report.h"

namespace assay::cli {
namespace {

struct RecCampaignOptions {
  std::string data;
  std::vector<std::string> algorithms;
  std::vector<std::string> whole_algorithms;  // --algorithm, commas included
  std::vector<std::string> heuristics;
  std::vector<std::size_t> sizes;
  std::vector<std::string> portfolio;
  std::size_t trials = 100;
  std::uint64_t seed = 0;
  std::size_t threads = 1;
  std::size_t k = 10;
  std::size_t noise_trials = 5;
  double delta = 0.1;
  std::string delta_oracle = "top-out";
  std::string headline_oracle = "top-out";
  double min_effect = stability::kDefaultMinEffect;
  bool save_all = false;
  std::string store;
  std::string out;
  std::size_t stop_after = 0;
  ShardOptions sharding;
  std::string sweep;
  bool accuracy = false;
  std::size_t folds = 5;
  bool quiet = false;
  RecProgramOptions program;
};

// --sweep KEY=V1,V2,...: a non-empty key and non-empty values.
CLI::Validator sweep_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const auto eq = s.find('=');
        bool ok = eq != std::string::npos && eq > 0 && eq + 1 < s.size();
        if (ok) {
          const std::string values = "," + s.substr(eq + 1) + ",";
          ok = values.find(",,") == std::string::npos;
        }
        return ok ? std::string() : "expects KEY=V1,V2,... with no empty value, got '" + s + "'";
      },
      "KEY=V1,V2,...");
}

int run(const RecCampaignOptions& o) {
  stability::CampaignConfig config;
  std::vector<std::string> specs = o.algorithms;
  specs.insert(specs.end(), o.whole_algorithms.begin(), o.whole_algorithms.end());
  if (!o.sweep.empty()) {
    // --sweep KEY=V1,V2,...: every --algorithms spec once per value.
    const auto eq = o.sweep.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == o.sweep.size()) {
      throw core::UsageError("--sweep expects KEY=V1,V2,... (got '" + o.sweep + "')");
    }
    if (specs.empty()) throw core::UsageError("--sweep needs --algorithms");
    const std::string key = o.sweep.substr(0, eq);
    std::vector<std::string> values;
    std::string rest = o.sweep.substr(eq + 1);
    for (std::size_t start = 0;;) {
      const auto comma = rest.find(',', start);
      values.push_back(rest.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    std::vector<std::string> swept;
    for (const auto& s : specs) {
      if (recsys::is_command_spec(s)) {
        throw core::UsageError("--sweep varies a built-in algorithm's key; " + s +
                               " is a program (give each of its configurations with --algorithm)");
      }
      for (const auto& v : values) swept.push_back(s + ":" + key + "=" + v);
    }
    specs = swept;
  }
  if (!specs.empty()) {
    // Normalised specs name the configurations (the store's rows, the seeds, the report); two
    // spellings of one configuration are one.
    config.algorithms.clear();
    for (const auto& a : specs) {
      const std::string id = recsys::normalize_recommender_spec(a);
      for (const auto& seen : config.algorithms) {
        if (seen == id) throw core::UsageError("--algorithms names " + id + " twice");
      }
      config.algorithms.push_back(id);
    }
  }
  if (!o.heuristics.empty()) {
    config.heuristics.clear();
    for (const auto& h : o.heuristics) config.heuristics.push_back(stability::parse_heuristic(h));
  }
  if (!o.sizes.empty()) config.sizes = o.sizes;
  if (!o.portfolio.empty()) {
    config.heuristic_options.portfolio.clear();
    for (const auto& h : o.portfolio) {
      config.heuristic_options.portfolio.push_back(stability::parse_heuristic(h));
    }
  }
  config.trials = o.trials;
  config.seed = o.seed;
  config.n_threads = o.threads;
  config.k = o.k;
  config.noise_trials = o.noise_trials;
  config.data_description = o.data;
  config.stop_after = o.stop_after;
  config.shard = shard_of(o.sharding);
  config.merge_from = o.sharding.merge;
  config.progress.quiet = o.quiet;
  stability::ReportOptions report;
  report.delta = o.delta;
  report.delta_oracle = stability::parse_oracle(o.delta_oracle);
  report.headline_oracle = stability::parse_oracle(o.headline_oracle);
  report.min_effect = o.min_effect;
  report.save_all = o.save_all;
  for (const auto& a : config.algorithms) {
    if (recsys::is_command_spec(a)) {
      check_rec_program(a);
    } else {
      (void)recsys::make_recommender(a);
    }
  }
  apply_rec_program_options(o.program);

  const auto data_spec = recsys::parse_data_spec(o.data);
  const auto data = recsys::load_ratings(data_spec);
  config.input_files = recsys::data_spec_files(data_spec);
  if (!o.quiet) {
    std::fprintf(stderr, "rec campaign: %zu users, %zu items, %zu ratings; %zu runs planned\n",
                 data.n_users(), data.n_items(), data.n_ratings(),
                 stability::campaign_keys(config).size());
  }
  stability::CampaignStore store(o.store);
  // An interrupt (Ctrl-C, SIGTERM) keeps the finished runs in the store.
  core::set_resume_hint("finished runs are kept in " + o.store +
                        "; rerun the same command to resume");
  const auto results = stability::run_campaign(data, config, store);
  auto summary = stability::analyse_campaign(config, results);
  // Accuracy: asked for, or a sweep (two configurations of one algorithm) to put it beside.
  bool accuracy = o.accuracy;
  for (std::size_t a = 0; a < config.algorithms.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      accuracy = accuracy || recsys::parse_recommender_spec(config.algorithms[a]).name ==
                                 recsys::parse_recommender_spec(config.algorithms[b]).name;
    }
  }
  if (accuracy && results.complete) {
    for (auto& c : summary.configurations) {
      if (recsys::is_command_spec(c.algorithm)) continue;  // a program gives no scores
      if (!o.quiet) {
        std::fprintf(stderr, "rec campaign: %zu-fold accuracy of %s\n", o.folds,
                     c.algorithm.c_str());
      }
      const auto acc = recsys::cross_validated_accuracy(data, c.algorithm, o.folds, config.seed,
                                                        config.n_threads);
      c.has_accuracy = true;
      c.rmse = acc.rmse;
      c.mae = acc.mae;
      c.folds = acc.folds;
    }
  }
  const auto sets = stability::sets_exceeding(
      data, config, results, o.save_all ? -std::numeric_limits<double>::infinity() : report.delta,
      report.delta_oracle);
  core::set_resume_hint("");
  stability::write_campaign_report(o.out, data, config, summary, sets, report);
  if (!o.sharding.merge.empty()) {
    std::printf("rec campaign: merged %zu runs from %zu stores into %s\n", results.n_merged,
                o.sharding.merge.size(), o.store.c_str());
  }
  const char* state = results.complete ? ""
                      : !config.shard.whole() && results.shard_complete
                          ? "; this shard is done: merge every shard's store with --merge"
                          : "; INCOMPLETE, run again to resume";
  if (!config.shard.whole()) {
    std::printf("rec campaign: shard %zu of %zu\n", config.shard.index, config.shard.count);
  }
  std::printf("rec campaign: %zu runs (%zu executed now, %zu from %s)%s\n", results.runs.size(),
              results.n_executed, results.n_resumed, o.store.c_str(), state);
  if (!results.failures.empty()) {
    std::printf(
        "rec campaign: %zu runs failed (%zu now), counted per cell in the report; run "
        "again to retry them. First: %s: %s\n",
        results.failures.size(), results.n_failed,
        core::escape_control(results.failures.front().unit_key()).c_str(),
        core::escape_control(results.failures.front().reason).c_str());
  }
  if (o.save_all) {
    std::printf("rec campaign: every run's set (%zu) saved under %s/mods\n", sets.size(),
                o.out.c_str());
  } else {
    std::printf("rec campaign: %zu sets exceed %s %g, saved under %s/mods\n", sets.size(),
                o.delta_oracle.c_str(), o.delta, o.out.c_str());
  }
  for (const auto oracle : stability::kAllOracles) {
    const auto p = stability::oracle_power(summary, oracle);
    std::printf(
        "rec campaign: %zu of %zu targeted %s cells beat their random baseline at p < 0.05 "
        "(rank-sum test) after Holm's correction (%zu before it), listed in %s/findings.md\n",
        p.findings, p.targeted, std::string(stability::title(oracle)).c_str(), p.raw,
        o.out.c_str());
  }
  const auto power = stability::oracle_power(summary, report.headline_oracle, report.min_effect);
  if (power.low) {
    std::fprintf(stderr, "rec campaign: warning: %s\n",
                 stability::low_power_warning(power).c_str());
  }
  std::printf("rec campaign: report %s/report.html, summary %s/summary.json\n", o.out.c_str(),
              o.out.c_str());
  return kOk;
}

void add_rec_campaign_command(CLI::App& rec, CommandResult& result) {
  auto o = std::make_shared<RecCampaignOptions>();
  auto* cmd = rec.add_subcommand(
      "campaign",
      "The stability study: algorithms × heuristics × sizes × trials, resumable. A study, not a "
      "pass/fail test: exits 0 when it completes (the sets above δ are saved and counted in the "
      "report); `rec fuzz` is the command that exits 1 on instability");
  cmd->add_option("--data", o->data, kRecDataHelp)->required();
  cmd->add_option(
         "--algorithms", o->algorithms,
         std::string("Comma separated specs (default user-user,item-item,funk-svd,hybrid): ") +
             kRecAlgorithmHelp + "; a cmd: spec cannot contain a comma, give it with --algorithm")
      ->delimiter(',');
  cmd->add_option("--algorithm", o->whole_algorithms,
                  "One more spec, taken whole (commas included): e.g. a cmd:PROGRAM [ARGS...]");
  cmd->add_option("--heuristics", o->heuristics,
                  "Comma separated (default all ten: AMU RMU CMU ALI AMR AMA ARAND RRAND CRAND "
                  "APORTFOLIO)")
      ->delimiter(',');
  add_count(cmd, "--sizes", o->sizes, "Set sizes (default 1,10,100)",
            {.min = 0, .max = 1'000'000'000})
      ->delimiter(',');
  add_count(cmd, "--trials", o->trials, "Trials per cell", {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--seed", o->seed, "Campaign seed",
            {.min = 0, .max = std::numeric_limits<std::uint64_t>::max()})
      ->capture_default_str();
  add_count(cmd, "--threads", o->threads, "Runs in parallel", {.min = 1, .max = 4'096})
      ->capture_default_str();
  add_count(cmd, "--top-k", o->k, "Length of the recommendation lists",
            {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--noise-trials", o->noise_trials,
            "Retrainings with other seeds per algorithm (noise floor)",
            {.min = 0, .max = 1'000'000})
      ->capture_default_str();
  cmd->add_option("--portfolio", o->portfolio, "APORTFOLIO's heuristics (default AMU,ALI,AMR,AMA)")
      ->delimiter(',');
  add_finite(cmd, "--delta", o->delta,
             "Save every set whose instability exceeds this (>= 0; --save-all saves every set)",
             {.min = 0})
      ->capture_default_str();
  cmd->add_option("--delta-oracle", o->delta_oracle, "Oracle compared with --delta")
      ->capture_default_str();
  cmd->add_option("--headline-oracle", o->headline_oracle,
                  "Oracle of the report's headline and low-power warning (top-out, jaccard, "
                  "aod, rbo); every oracle's findings are tabled")
      ->capture_default_str();
  add_finite(cmd, "--min-effect", o->min_effect,
             "Difference of means (of the headline oracle; 0.05 = 5 % of users for top-out) the "
             "campaign should detect: cells that could not are reported as low power",
             {.min = 0})
      ->capture_default_str();
  cmd->add_flag("--save-all", o->save_all,
                "Save every run's modification set under mods/, whatever its instability "
                "(rec replay and rec export read them)");
  add_database_file(cmd, "--store", o->store,
                    "SQLite store of finished runs (resumes from it; one process at a time; "
                    "bound to the content of the data files)")
      ->required();
  add_output_directory(cmd, "--out", o->out, "Report directory", stability::campaign_report_files())
      ->required();
  add_count(cmd, "--stop-after", o->stop_after,
            "Stop after N runs (simulates an interruption; 0 = no limit)",
            {.min = 0, .max = 1'000'000'000'000});
  add_shard_options(cmd, o->sharding, "--store");
  cmd->add_option("--sweep", o->sweep,
                  "KEY=V1,V2,...: run every --algorithms spec once per value of KEY")
      ->check(sweep_check());
  cmd->add_flag("--accuracy", o->accuracy,
                "Cross-validated RMSE/MAE per configuration (automatic for sweeps)");
  add_count(cmd, "--folds", o->folds, "Folds of the accuracy check", {.min = 2, .max = 100})
      ->capture_default_str();
  add_rec_program_options(cmd, o->program);
  cmd->add_flag("--quiet", o->quiet, "No progress on stderr");
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("rec", "Recommender stability: recommend, fuzz, campaign, replay, export",
                       "campaign", add_rec_campaign_command)

}  // namespace assay::cli
