// ChunkStore: the finished chunks of a sharded, resumable run over a list of inputs (one row
// per chunk: its key and its result as text), kept in a SQLite file (often the answer cache's,
// beside the answers). A core::UnitStore underneath: its lock keeps a second writer out, and
// merge() adds the chunks of other shards' files. Every engine that runs chunks of inputs
// (chunked_run.h) keeps them here, each in its own tables ("<kind>_identity" and
// "<kind>_chunks"), so one file may serve several commands without mixing their rows.
//
// Chunk keys carry everything their result depends on (chunked_run.h), so one file may hold the
// chunks of many inputs, models and settings; the identity records only the row format.
//
// Thread-safe (a mutex around every call).
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include "core/file_lock.h"
#include "core/unit_store.h"

namespace assay::core {

class ChunkStore {
 public:
  // Reads a chunk's result as the engine will (throws a core::Error when it cannot), so that
  // merge() refuses a shard whose rows would fail every later run.
  using ResultCheck = std::function<void(const std::string& result)>;

  // Opens or creates the file and the tables of `kind` (a plain SQL name) and checks that its
  // rows are of `format` (e.g. "assay fair test chunks, v1"). Throws core::IoError naming the
  // file, core::UsageError when it holds rows of another format.
  ChunkStore(const std::string& path, const std::string& kind, const std::string& format,
             ResultCheck check = {});

  const std::string& path() const { return store_.path(); }
  // The writer's lock (core::UsageError naming the file when another process holds it).
  FileLock lock() const { return store_.lock(); }
  // Adds the chunks of the file at `other_path` that this one lacks; returns how many. Throws
  // as UnitStore::merge (no such file, a damaged file, a file of another format, a shard still
  // running), and core::ParseError naming that file and the chunk when the check refuses one of
  // its results; then nothing is copied.
  std::size_t merge(const std::string& other_path);

  std::unordered_set<std::string> finished_keys() const;
  // Records a finished chunk in one committed row (a key already there keeps its row).
  void put(const std::string& key, const std::string& result);
  std::optional<std::string> get(const std::string& key) const;

 private:
  mutable std::mutex mutex_;
  UnitStore store_;
  std::string table_;
  StoreIdentity identity_;
  ResultCheck check_;
};

}  // namespace assay::core
