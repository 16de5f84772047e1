// The durable record of a campaign: a core::UnitStore with one SQLite row per finished run and
// per noise-floor retraining, each committed on its own as soon as the run ends (WAL, see
// core/sqlite_store.h), so a campaign killed at any moment (kill -9) loses at most the runs in
// flight and never records one twice (the key is the primary key).
//
// The store also remembers what the campaign was measured on (data description and the content
// hash of every input file, seed, k, portfolio, the configurations' specs; table `campaign`);
// reopening it for a different campaign is a core::UsageError naming the file, or the input
// file that changed. Thread-safe: every method takes an internal mutex.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/file_lock.h"
#include "core/unit_store.h"
#include "stability/campaign_run.h"

namespace assay::stability {

struct NoiseResult {
  std::string algorithm;
  std::size_t trial = 0;
  std::uint64_t seed = 0;
  std::array<double, kNumOracles> oracle{};
};

// A run or noise retraining whose recommender failed (a program's non-zero exit, timeout,
// malformed or incomplete lists, rated items: recsys::RecommenderFailure). It is not finished:
// the next campaign on the store retries it, and a success removes the failure.
struct FailedRun {
  std::string algorithm;
  bool noise = false;  // a noise-floor retraining (heuristic and size unused)
  Heuristic heuristic = Heuristic::kArand;
  std::size_t size = 0;
  std::size_t trial = 0;
  std::string reason;
  std::string stderr_tail;
  std::size_t attempts = 1;      // failed attempts so far
  std::string unit_key() const;  // run_unit_key or noise_unit_key
};

class CampaignStore {
 public:
  // Opens or creates the store; throws core::IoError naming the file on failure.
  explicit CampaignStore(const std::string& path);

  const std::string& path() const { return store_.path(); }

  // The writer's lock (core/file_lock.h): a second process gets a core::UsageError.
  core::FileLock lock() const { return store_.lock(); }

  // Records the campaign's identity on first use; afterwards every key must match (throws
  // core::UsageError naming the file, the key and both values, or the changed input file).
  void check_identity(const std::map<std::string, std::string>& identity);

  // Copies the runs and noise retrainings this store lacks from another store of the same
  // campaign (core::UnitStore::merge). Returns {runs added, noise retrainings added}. A row of
  // the other store that this one could not read (an unknown heuristic, a count that is not a
  // whole number, a value that is not a number) is a core::ParseError naming that store and the
  // row; then nothing is copied.
  std::pair<std::size_t, std::size_t> merge(const std::string& other_path,
                                            const std::map<std::string, std::string>& identity);

  // The unit keys (run_unit_key, noise_unit_key) of everything recorded.
  std::vector<std::string> finished_keys() const;

  // Records a finished run (removing a failure recorded for it earlier).
  void append(const RunResult& run);
  void append(const NoiseResult& noise);
  // Records a failed attempt (replacing the reason of an earlier one, counting attempts).
  void record_failure(const FailedRun& failure);
  // Every failure not since retried successfully, in unit key order.
  std::vector<FailedRun> failures() const;
  // Everything recorded, in key order (algorithm, heuristic, size, trial).
  std::vector<RunResult> runs() const;
  std::vector<NoiseResult> noise() const;

 private:
  mutable std::mutex mutex_;
  core::UnitStore store_;
  core::SqliteStore& db_;
  core::SqliteStatement insert_run_;
  core::SqliteStatement insert_noise_;
  core::SqliteStatement insert_failure_;
  core::SqliteStatement delete_failure_;
};

}  // namespace assay::stability
