// UnitStore: the durable side of a resumable campaign of keyed units (unit_plan.h,
// unit_runner.h). It holds the SQLite database (sqlite_store.h: WAL, every committed row
// survives kill -9) and the campaign's identity; the engine that owns the store adds its
// result tables (one row per finished unit, the unit's key as primary key) and says which keys
// are finished.
//
// Identity: a set of key = value records written on first use and compared on every later use,
// so a store is never resumed or merged with a different campaign. Keys "input:<path>" hold the
// content hash of an input file (input_identity); a changed file is named in the error. A key
// the store lacks is recorded (a store begun by an older version gains it on resume).
//
// Locking: lock() takes the store for one writer (file_lock.h); a second process gets a
// core::UsageError naming the store. Readers (reports, progress peeks) need no lock.
//
// Not thread-safe: engines serialise their calls (e.g. with a mutex around appends).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/file_lock.h"
#include "core/sqlite_store.h"

namespace assay::core {

using StoreIdentity = std::map<std::string, std::string>;

// "sha256:<64 hex digits>" of the file's bytes. Throws core::IoError naming the file.
std::string file_content_hash(const std::string& path);

// "sha256:<64 hex digits>" of `bytes`: names a unit by its content (e.g. the texts it covers).
std::string content_hash(std::string_view bytes);

// Adds "input:<path>" = file_content_hash(path) for every path.
void add_input_files(StoreIdentity& identity, const std::vector<std::string>& paths);

class UnitStore {
 public:
  // Opens or creates the database (core::IoError naming it on failure). The identity lives in
  // `identity_table` (key TEXT PRIMARY KEY, value TEXT), created when missing.
  explicit UnitStore(const std::string& path, const std::string& identity_table = "identity");

  const std::string& path() const { return db_.path(); }
  SqliteStore& db() { return db_; }
  const SqliteStore& db() const { return db_; }

  // Takes the exclusive lock; hold the result while executing or merging into this store.
  FileLock lock() const;

  // Records `identity` on first use; afterwards every key present in both must match. A
  // mismatch is a core::UsageError naming the store and the key with both values; for an
  // "input:<path>" key, naming the changed file.
  void check_identity(const StoreIdentity& identity);
  StoreIdentity identity() const;

  // Copies the rows of `tables` that this store lacks (by primary key) from the store at
  // `other_path`, after checking its identity against `identity` (same rules as
  // check_identity, nothing recorded there) and taking a shared lock on it, so a shard still
  // running is refused rather than half read. Both stores must have the same schema for those
  // tables. `check_source`, when given, is called with this store's database while the other
  // is attached as "merge_source", before anything is copied: it throws (any core::Error) when
  // a row there is not one this store may hold. Returns the rows added per table, in `tables`
  // order. Throws core::IoError when the other store does not exist or is damaged (SQLite's
  // quick check, or any SQLite error while it is read), core::UsageError when it is this store,
  // has no identity or belongs to another campaign; every error names the other store, and
  // nothing is copied.
  std::vector<std::size_t> merge(const std::string& other_path,
                                 const std::vector<std::string>& tables,
                                 const StoreIdentity& identity,
                                 const std::function<void(SqliteStore&)>& check_source = {});

 private:
  SqliteStore db_;
  std::string identity_table_;
};

}  // namespace assay::core
