// FairnessChunkStore: the finished chunks of `fair test` (one row per chunk of inputs: its key
// and its result as JSON), kept in the answer cache's SQLite file beside the answers, so the
// one --cache FILE resumes both: answers are never asked twice and finished chunks are never
// perturbed again. A core::UnitStore underneath (identity table "fair_test_identity", table
// "fair_test_chunks"): its lock keeps a second writer out, and merge() adds the chunks of
// other shards' files.
//
// Chunk keys carry everything their result depends on (the texts, their lines, the model's
// identity, the perturbation settings), so one cache file may hold the chunks of many inputs,
// models and settings without mixing them; the identity records only the row format.
//
// Thread-safe (a mutex around every call).
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/file_lock.h"
#include "core/unit_store.h"

namespace assay::fairness {

class FairnessChunkStore {
 public:
  // Opens (creating the table when missing) and checks the identity. Throws core::IoError
  // naming the file, core::UsageError when it holds chunks of another format.
  explicit FairnessChunkStore(const std::string& path);

  const std::string& path() const { return store_.path(); }
  // The writer's lock (core::UsageError naming the file when another process holds it).
  core::FileLock lock() const { return store_.lock(); }
  // Adds the chunks of the file at `other_path` that this one lacks; returns how many.
  std::size_t merge(const std::string& other_path);

  std::unordered_set<std::string> finished_keys() const;
  // Records a finished chunk in one committed row (a key already there keeps its row).
  void put(const std::string& key, const std::string& result);
  std::optional<std::string> get(const std::string& key) const;

 private:
  mutable std::mutex mutex_;
  core::UnitStore store_;
};

}  // namespace assay::fairness
