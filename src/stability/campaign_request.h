// The stability study as one library run, for `rec campaign` and assay.rec.campaign alike: the
// request holds what either front end is asked, with the command's defaults (taken from
// CampaignConfig and ReportOptions, so each default is written once); plan_campaign checks it
// and expands it (a sweep over a key, spellings of one configuration made one, heuristic and
// oracle names parsed); run_campaign_plan runs the plan through its store, measures accuracy
// when asked (or when two configurations of one algorithm are compared), and writes the report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/progress.h"
#include "core/shard.h"
#include "recsys/ratings.h"
#include "stability/campaign.h"
#include "stability/campaign_analysis.h"
#include "stability/campaign_report.h"

namespace assay::stability {

struct CampaignRequest {
  std::vector<std::string> algorithms;  // specs; empty: CampaignConfig's four
  std::string sweep;                    // "KEY=V1,V2,...": every spec once per value of KEY
  std::vector<std::string> heuristics;  // names; empty: all ten
  std::vector<std::size_t> sizes;       // empty: CampaignConfig's
  std::vector<std::string> portfolio;   // APORTFOLIO's heuristics; empty: the default four
  std::size_t trials = CampaignConfig{}.trials;
  std::uint64_t seed = CampaignConfig{}.seed;
  std::size_t threads = CampaignConfig{}.n_threads;
  std::size_t k = CampaignConfig{}.k;
  std::size_t noise_trials = CampaignConfig{}.noise_trials;
  std::size_t stop_after = 0;  // stop after this many new runs (0: no limit)
  core::Shard shard;
  std::vector<std::string> merge;  // other shards' stores, merged in first
  double delta = ReportOptions{}.delta;
  std::string delta_oracle = "top-out", headline_oracle = "top-out";
  double min_effect = ReportOptions{}.min_effect;
  bool save_all = false;  // save every run's set, not only those above delta
  bool accuracy = false;  // cross-validated RMSE/MAE per configuration
  std::size_t folds = 5;
  std::string data_description;          // recorded in the store (the data spec as given)
  std::vector<std::string> input_files;  // the data's files (their hashes bind the store)
  core::ProgressOptions progress;
};

struct CampaignPlan {
  CampaignConfig config;
  ReportOptions report;
  bool accuracy = false;  // asked for, or two configurations of one algorithm
  std::size_t folds = 5;
};

// Throws core::UsageError for a malformed sweep (or one without algorithms, or over a program),
// a configuration named twice, unknown heuristic or oracle names, counts out of range
// (trials 0, threads 0, k 0, folds < 2), a delta or min_effect that is not finite and >= 0, and
// the errors of each built-in spec (recsys::make_recommender) and each program's (the program
// cannot be found).
CampaignPlan plan_campaign(const CampaignRequest& request);

struct CampaignOutcome {
  CampaignResults results;
  CampaignSummary summary;
  std::size_t n_sets = 0;            // modification sets saved under out/mods
  std::vector<std::string> written;  // the report's files ("" out: none)
  std::string summary_json;          // summary.json's content
};

// Runs the plan on `data` through `store`, analyses it, measures accuracy (on_accuracy(spec)
// before each configuration's, when given; programs give no scores) once every run is
// finished, and writes the report into `out` ("" writes none). Throws what run_campaign and
// the report throw.
CampaignOutcome run_campaign_plan(const CampaignPlan& plan, const recsys::Ratings& data,
                                  CampaignStore& store, const std::string& out,
                                  const std::function<void(const std::string&)>& on_accuracy);

}  // namespace assay::stability
