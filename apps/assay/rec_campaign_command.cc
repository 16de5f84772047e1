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
#include "option_checks.h"
#include "rec_options.h"
#include "recsys/data_spec.h"
#include "shard_options.h"
#include "stability/campaign.h"
#include "stability/campaign_analysis.h"
#include "stability/campaign_report.h"
#include "stability/campaign_request.h"

namespace assay::cli {
namespace {

// The request's fields are the flags' (their defaults the library's); the rest is the
// command's own.
struct RecCampaignOptions {
  stability::CampaignRequest request;
  std::string data;
  std::vector<std::string> whole_algorithms;  // --algorithm, commas included
  std::string store;
  std::string out;
  ShardOptions sharding;
  bool quiet = false;
  RecProgramOptions program;
};

int run(RecCampaignOptions& o) {
  auto& request = o.request;
  request.algorithms.insert(request.algorithms.end(), o.whole_algorithms.begin(),
                            o.whole_algorithms.end());
  request.shard = shard_of(o.sharding);
  request.merge = o.sharding.merge;
  request.data_description = o.data;
  request.progress.quiet = o.quiet;
  const auto data_spec = recsys::parse_data_spec(o.data);
  request.input_files = recsys::data_spec_files(data_spec);
  const auto plan = stability::plan_campaign(request);
  const auto& config = plan.config;
  apply_rec_program_options(o.program);

  const auto data = recsys::load_ratings(data_spec);
  if (!o.quiet) {
    std::fprintf(stderr, "rec campaign: %zu users, %zu items, %zu ratings; %zu runs planned\n",
                 data.n_users(), data.n_items(), data.n_ratings(),
                 stability::campaign_keys(config).size());
  }
  stability::CampaignStore store(o.store);
  // An interrupt (Ctrl-C, SIGTERM) keeps the finished runs in the store.
  core::set_resume_hint("finished runs are kept in " + o.store +
                        "; rerun the same command to resume");
  const auto outcome =
      stability::run_campaign_plan(plan, data, store, o.out, [&o, &plan](const std::string& a) {
        if (!o.quiet)
          std::fprintf(stderr, "rec campaign: %zu-fold accuracy of %s\n", plan.folds, a.c_str());
      });
  const auto& results = outcome.results;
  const auto& summary = outcome.summary;
  const auto& report = plan.report;
  core::set_resume_hint("");
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
  if (request.save_all) {
    std::printf("rec campaign: every run's set (%zu) saved under %s/mods\n", outcome.n_sets,
                o.out.c_str());
  } else {
    std::printf("rec campaign: %zu sets exceed %s %g, saved under %s/mods\n", outcome.n_sets,
                request.delta_oracle.c_str(), request.delta, o.out.c_str());
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
         "--algorithms", o->request.algorithms,
         std::string("Comma separated specs (default user-user,item-item,funk-svd,hybrid): ") +
             kRecAlgorithmHelp + "; a cmd: spec cannot contain a comma, give it with --algorithm")
      ->delimiter(',');
  cmd->add_option("--algorithm", o->whole_algorithms,
                  "One more spec, taken whole (commas included): e.g. a cmd:PROGRAM [ARGS...]");
  cmd->add_option("--heuristics", o->request.heuristics,
                  "Comma separated (default all ten: AMU RMU CMU ALI AMR AMA ARAND RRAND CRAND "
                  "APORTFOLIO)")
      ->delimiter(',');
  add_count(cmd, "--sizes", o->request.sizes, "Set sizes (default 1,10,100)",
            {.min = 0, .max = 1'000'000'000})
      ->delimiter(',');
  add_count(cmd, "--trials", o->request.trials, "Trials per cell", {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--seed", o->request.seed, "Campaign seed",
            {.min = 0, .max = std::numeric_limits<std::uint64_t>::max()})
      ->capture_default_str();
  add_count(cmd, "--threads", o->request.threads, "Runs in parallel", {.min = 1, .max = 4'096})
      ->capture_default_str();
  add_count(cmd, "--top-k", o->request.k, "Length of the recommendation lists",
            {.min = 1, .max = 1'000'000'000})
      ->capture_default_str();
  add_count(cmd, "--noise-trials", o->request.noise_trials,
            "Retrainings with other seeds per algorithm (noise floor)",
            {.min = 0, .max = 1'000'000})
      ->capture_default_str();
  cmd->add_option("--portfolio", o->request.portfolio,
                  "APORTFOLIO's heuristics (default AMU,ALI,AMR,AMA)")
      ->delimiter(',');
  add_finite(cmd, "--delta", o->request.delta,
             "Save every set whose instability exceeds this (>= 0; --save-all saves every set)",
             {.min = 0})
      ->capture_default_str();
  cmd->add_option("--delta-oracle", o->request.delta_oracle, "Oracle compared with --delta")
      ->capture_default_str();
  cmd->add_option("--headline-oracle", o->request.headline_oracle,
                  "Oracle of the report's headline and low-power warning (top-out, jaccard, "
                  "aod, rbo); every oracle's findings are tabled")
      ->capture_default_str();
  add_finite(cmd, "--min-effect", o->request.min_effect,
             "Difference of means (of the headline oracle; 0.05 = 5 % of users for top-out) the "
             "campaign should detect: cells that could not are reported as low power",
             {.min = 0})
      ->capture_default_str();
  cmd->add_flag("--save-all", o->request.save_all,
                "Save every run's modification set under mods/, whatever its instability "
                "(rec replay and rec export read them)");
  add_database_file(cmd, "--store", o->store,
                    "SQLite store of finished runs (resumes from it; one process at a time; "
                    "bound to the content of the data files)")
      ->required();
  add_output_directory(cmd, "--out", o->out, "Report directory", stability::campaign_report_files())
      ->required();
  add_count(cmd, "--stop-after", o->request.stop_after,
            "Stop after N runs (simulates an interruption; 0 = no limit)",
            {.min = 0, .max = 1'000'000'000'000});
  add_shard_options(cmd, o->sharding, "--store");
  cmd->add_option("--sweep", o->request.sweep,
                  "KEY=V1,V2,...: run every --algorithms spec once per value of KEY");
  cmd->add_flag("--accuracy", o->request.accuracy,
                "Cross-validated RMSE/MAE per configuration (automatic for sweeps)");
  add_count(cmd, "--folds", o->request.folds, "Folds of the accuracy check", {.min = 2, .max = 100})
      ->capture_default_str();
  add_rec_program_options(cmd, o->program);
  cmd->add_flag("--quiet", o->quiet, "No progress on stderr");
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("rec", "Recommender stability: recommend, fuzz, campaign, replay, export",
                       "campaign", add_rec_campaign_command)

}  // namespace assay::cli
