#include "core/sqlite_store.h"

#include <sqlite3.h>

#include <utility>

#include "core/error.h"

namespace assay::core {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, const std::string& why) {
  throw IoError(SourceLocation(path), what + ": " + why);
}

}  // namespace

SqliteStore::SqliteStore(std::string path) : path_(std::move(path)) {
  const int rc =
      sqlite3_open_v2(path_.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    fail(path_, "cannot open SQLite database", why);
  }
  sqlite3_busy_timeout(db_, 10000);
  try {
    // journal_mode returns a row; run it through a statement. Fails here (not later) when the
    // file exists but is not a database.
    auto mode = prepare("PRAGMA journal_mode=WAL");
    if (mode.step() && mode.column_text(0) != "wal") {
      fail(path_, "cannot switch to WAL journal mode", "got '" + mode.column_text(0) + "'");
    }
    exec("PRAGMA synchronous=NORMAL");
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

SqliteStore::~SqliteStore() {
  sqlite3_close_v2(db_);
}

std::string SqliteStore::last_error() const {
  return db_ ? sqlite3_errmsg(db_) : "closed";
}

std::int64_t SqliteStore::changes() const {
  return sqlite3_changes64(db_);
}

void SqliteStore::exec(const std::string& sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    const std::string why = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    fail(path_, "SQL failed (" + sql + ")", why);
  }
}

SqliteStatement SqliteStore::prepare(const std::string& sql) const {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) fail(path_, "cannot prepare (" + sql + ")", last_error());
  return SqliteStatement(this, stmt, sql);
}

SqliteStatement::SqliteStatement(const SqliteStore* store, sqlite3_stmt* stmt, std::string sql)
    : store_(store), stmt_(stmt), sql_(std::move(sql)) {}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : store_(other.store_),
      stmt_(std::exchange(other.stmt_, nullptr)),
      sql_(std::move(other.sql_)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    store_ = other.store_;
    stmt_ = std::exchange(other.stmt_, nullptr);
    sql_ = std::move(other.sql_);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(stmt_);
}

void SqliteStatement::check_bind(int rc, int index) {
  if (rc != SQLITE_OK) {
    fail(store_->path(), "cannot bind parameter " + std::to_string(index) + " of (" + sql_ + ")",
         store_->last_error());
  }
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
  check_bind(sqlite3_bind_int64(stmt_, index, value), index);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  check_bind(sqlite3_bind_double(stmt_, index, value), index);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view value) {
  check_bind(sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                               SQLITE_TRANSIENT),
             index);
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
  check_bind(sqlite3_bind_null(stmt_, index), index);
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const std::string why = store_->last_error();
  sqlite3_reset(stmt_);
  fail(store_->path(), "SQL failed (" + sql_ + ")", why);
}

void SqliteStatement::run() {
  while (step()) {
  }
  reset();
}

void SqliteStatement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int SqliteStatement::column_count() const {
  return sqlite3_column_count(stmt_);
}
bool SqliteStatement::column_is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}
std::int64_t SqliteStatement::column_int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}
double SqliteStatement::column_double(int column) const {
  return sqlite3_column_double(stmt_, column);
}
std::string SqliteStatement::column_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  const int n = sqlite3_column_bytes(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(n))
              : std::string();
}

SqliteTransaction::SqliteTransaction(SqliteStore& store) : store_(store) {
  store_.exec("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
  if (!done_) {
    try {
      store_.exec("ROLLBACK");
    } catch (...) {
      // Destructors must not throw; the transaction is abandoned either way.
    }
  }
}

void SqliteTransaction::commit() {
  store_.exec("COMMIT");
  done_ = true;
}

}  // namespace assay::core
