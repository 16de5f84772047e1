// SqliteStore: a small RAII wrapper over one SQLite connection for result and cache stores.
// The database is opened in WAL mode with synchronous=NORMAL, so a committed transaction
// survives the process being killed (kill -9) and readers never block the writer. Every failure
// is a core::IoError whose message names the database file and the failing statement.
//
// Not thread-safe: one connection per thread, or serialise access with a mutex.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace assay::core {

class SqliteStore;

// A prepared statement; parameters are 1-based as in SQLite, columns 0-based.
class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  SqliteStatement& bind(int index, std::int64_t value);
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, std::string_view value);
  SqliteStatement& bind_null(int index);

  // Advances; true when a row is available, false when done. Throws IoError on failure.
  bool step();
  // Runs a statement that returns no rows, then resets it for reuse.
  void run();
  // Resets and clears bindings so the statement can be executed again.
  void reset();

  int column_count() const;
  bool column_is_null(int column) const;
  std::int64_t column_int64(int column) const;
  double column_double(int column) const;
  std::string column_text(int column) const;

 private:
  friend class SqliteStore;
  SqliteStatement(const SqliteStore* store, sqlite3_stmt* stmt, std::string sql);
  void check_bind(int rc, int index);

  const SqliteStore* store_;
  sqlite3_stmt* stmt_;
  std::string sql_;
};

class SqliteStore {
 public:
  // Opens (creating if needed) the database at `path`. Throws IoError naming the file when it
  // cannot be opened or is not an SQLite database.
  explicit SqliteStore(std::string path);
  ~SqliteStore();
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  const std::string& path() const { return path_; }

  // Executes one or more statements without results.
  void exec(const std::string& sql);
  SqliteStatement prepare(const std::string& sql) const;

  // The connection's last error message, for building exceptions.
  std::string last_error() const;
  // Rows inserted, updated or deleted by the last finished statement (sqlite3_changes64).
  std::int64_t changes() const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() was called.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteStore& store);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void commit();

 private:
  SqliteStore& store_;
  bool done_ = false;
};

}  // namespace assay::core
