// The stability campaign: algorithms × heuristics × sizes × trials runs (the paper's study by
// default) plus the noise-floor retrainings, planned as keyed units and executed by the core
// runner (core/unit_runner.h): parallel across runs, every finished run appended to a
// CampaignStore at once. Runs already in the store are skipped, so re-running after an
// interruption finishes the campaign without losing or repeating a run, and gives the same
// numbers as an uninterrupted campaign (each run's seed depends only on its key).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "core/shard.h"
#include "recsys/ratings.h"
#include "stability/campaign_run.h"
#include "stability/campaign_store.h"
#include "stability/heuristic.h"
#include "stability/modification_set_file.h"

namespace assay::stability {

struct CampaignConfig {
  std::vector<std::string> algorithms{"user-user", "item-item", "funk-svd", "hybrid"};
  std::vector<Heuristic> heuristics = all_heuristics();
  std::vector<std::size_t> sizes{1, 10, 100};
  std::size_t trials = 100;
  std::uint64_t seed = 0;
  std::size_t n_threads = 1;
  std::size_t k = 10;
  // Retrainings on the unmodified data with other seeds, per algorithm (the noise floor).
  std::size_t noise_trials = 5;
  HeuristicOptions heuristic_options;
  // Recorded in the store and checked on resume (e.g. the --data spec).
  std::string data_description;
  // The files the data was read from (recsys::data_spec_files); their content hashes are
  // recorded in the store and checked on resume and merge, so a changed file is an error
  // naming it rather than a campaign mixing runs on two versions of the data.
  std::vector<std::string> input_files;
  // Stop after this many newly executed runs (0: no limit); simulates an interruption.
  std::size_t stop_after = 0;
  // Many machines: this process executes only the runs (and noise retrainings) whose index in
  // config order this shard owns (core/shard.h), into its own store; each shard's store is
  // then merged into one (merge_from) and the full report written from it. Results do not
  // depend on the sharding (each run's seed depends only on its key).
  core::Shard shard;
  // Stores of other shards (or earlier campaigns with the same identity) whose finished runs
  // are copied into this store before anything runs; each must exist and match the identity.
  std::vector<std::string> merge_from;
  core::ProgressOptions progress;
};

struct CampaignResults {
  std::vector<AlgorithmBaseline> baselines;  // config.algorithms order
  std::vector<RunResult> runs;               // config order (algorithm, heuristic, size, trial)
  std::vector<NoiseResult> noise;            // config.algorithms order, then trial
  // Runs and noise retrainings whose recommender (a program) failed and that no later attempt
  // finished, in unit key order; they are retried by the next campaign on the store.
  std::vector<FailedRun> failures;
  std::size_t n_failed = 0;     // failures by this call (runs and noise)
  std::size_t n_executed = 0;   // runs executed by this call (not noise)
  std::size_t n_resumed = 0;    // runs found in the store (after merging)
  std::size_t n_merged = 0;     // runs copied from merge_from stores
  bool complete = false;        // every configured run is in `runs`
  bool shard_complete = false;  // every run of this shard is in `runs`
};

// Where the training files of a campaign's programs go: the store's path + ".tmp".
std::string work_dir(const CampaignStore& store);

// Every run of the configuration, in config order.
std::vector<RunKey> campaign_keys(const CampaignConfig& config);

// Validates the configuration (throws core::UsageError), takes the store's lock (a store in
// use by another process is a core::UsageError), checks its identity, merges the merge_from
// stores, trains the baselines, executes the missing runs of this shard and returns everything
// the store holds for this configuration. A run or noise retraining whose program fails
// (recsys::RecommenderFailure) is recorded as a failure and the campaign goes on; a failing
// baseline training throws it (nothing can be measured without the original lists). A
// program's training files live in work_dir(store) (removed first, so files an earlier
// process left when it was killed go too).
CampaignResults run_campaign(const recsys::Ratings& data, const CampaignConfig& config,
                             CampaignStore& store);

// The runs whose `oracle` value exceeds `delta`, with their modification sets regenerated from
// the recorded seeds (generation is deterministic), in run order.
std::vector<SavedModificationSet> sets_exceeding(const recsys::Ratings& data,
                                                 const CampaignConfig& config,
                                                 const CampaignResults& results, double delta,
                                                 Oracle oracle);

}  // namespace assay::stability
