#include "core/unit_store.h"

#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/sha256.h"

namespace assay::core {
namespace {

constexpr std::string_view kInputPrefix = "input:";

std::string short_hash(const std::string& value) {
  return value.size() > 19 ? value.substr(0, 19) + "..." : value;
}

// The error for a key whose value differs; `store` is the store being checked.
[[noreturn]] void identity_mismatch(const std::string& store, const std::string& key,
                                    const std::string& stored, const std::string& now) {
  if (key.rfind(kInputPrefix, 0) == 0) {
    const std::string file = key.substr(kInputPrefix.size());
    throw UsageError(SourceLocation(file),
                     "this input file changed since the store " + store + " was begun (content " +
                         short_hash(stored) + " then, " + short_hash(now) +
                         " now); restore the file, or use a new store for the new data");
  }
  throw UsageError(SourceLocation(store), "this store belongs to another campaign: " + key +
                                              " is '" + stored + "' there but '" + now +
                                              "' now (use a new store or the original settings)");
}

std::string quoted_name(const std::string& name) {
  for (const char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) throw UsageError("not a plain SQL table name: '" + name + "'");
  }
  return "\"" + name + "\"";
}

}  // namespace

std::string content_hash(std::string_view bytes) {
  return "sha256:" + sha256_hex(bytes);
}

std::string file_content_hash(const std::string& path) {
  return "sha256:" + file_sha256_hex(path);
}

void add_input_files(StoreIdentity& identity, const std::vector<std::string>& paths) {
  for (const auto& p : paths) identity[std::string(kInputPrefix) + p] = file_content_hash(p);
}

UnitStore::UnitStore(const std::string& path, const std::string& identity_table)
    : db_(path), identity_table_(quoted_name(identity_table)) {
  db_.exec("CREATE TABLE IF NOT EXISTS " + identity_table_ +
           " (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

FileLock UnitStore::lock() const {
  return FileLock(path(), FileLock::Mode::kExclusive,
                  "; wait for it to finish, or use another store");
}

void UnitStore::check_identity(const StoreIdentity& identity) {
  SqliteTransaction tx(db_);
  auto select = db_.prepare("SELECT value FROM " + identity_table_ + " WHERE key = ?");
  auto insert = db_.prepare("INSERT INTO " + identity_table_ + " VALUES (?, ?)");
  for (const auto& [key, value] : identity) {
    select.bind(1, std::string_view(key));
    if (select.step()) {
      const std::string stored = select.column_text(0);
      if (stored != value) identity_mismatch(path(), key, stored, value);
    } else {
      insert.bind(1, std::string_view(key)).bind(2, std::string_view(value));
      insert.run();
    }
    select.reset();
  }
  tx.commit();
}

StoreIdentity UnitStore::identity() const {
  StoreIdentity out;
  auto q = db_.prepare("SELECT key, value FROM " + identity_table_);
  while (q.step()) out.emplace(q.column_text(0), q.column_text(1));
  return out;
}

std::vector<std::size_t> UnitStore::merge(const std::string& other_path,
                                          const std::vector<std::string>& tables,
                                          const StoreIdentity& identity,
                                          const std::function<void(SqliteStore&)>& check_source) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(other_path, ec)) {
    throw IoError(SourceLocation(other_path), "no such store to merge");
  }
  if (fs::equivalent(other_path, path(), ec)) {
    throw UsageError(SourceLocation(other_path), "cannot merge a store into itself");
  }
  const FileLock shared(other_path, FileLock::Mode::kShared,
                        "; merge it once that run has finished");
  auto attach = db_.prepare("ATTACH DATABASE ? AS merge_source");
  attach.bind(1, std::string_view(other_path));
  attach.run();
  struct Detach {
    SqliteStore& db;
    ~Detach() {
      try {
        db.exec("DETACH DATABASE merge_source");
      } catch (const std::exception&) {
        // Leaving it attached only costs a file handle until the store closes.
      }
    }
  } detach{db_};

  StoreIdentity theirs;
  try {
    auto q = db_.prepare("SELECT key, value FROM merge_source." + identity_table_);
    while (q.step()) theirs.emplace(q.column_text(0), q.column_text(1));
  } catch (const IoError&) {
    theirs.clear();
  }
  if (theirs.empty()) {
    throw UsageError(SourceLocation(other_path),
                     "not a store of this kind (it records no campaign identity)");
  }
  for (const auto& [key, value] : identity) {
    const auto it = theirs.find(key);
    if (it == theirs.end() || it->second == value) continue;
    if (key.rfind(kInputPrefix, 0) == 0) {
      throw UsageError(SourceLocation(other_path), "this store was made from other contents of " +
                                                       key.substr(kInputPrefix.size()) + " (" +
                                                       short_hash(it->second) + " there, " +
                                                       short_hash(value) + " now)");
    }
    identity_mismatch(other_path, key, it->second, value);
  }

  std::vector<std::size_t> added;
  try {
    auto check = db_.prepare("PRAGMA merge_source.quick_check");
    const std::string verdict = check.step() ? check.column_text(0) : "no answer";
    if (verdict != "ok") throw IoError("damaged store (SQLite's check: " + verdict + ")");
    if (check_source) check_source(db_);
    SqliteTransaction tx(db_);
    for (const auto& table : tables) {
      const std::string name = quoted_name(table);
      db_.exec("INSERT OR IGNORE INTO main." + name + " SELECT * FROM merge_source." + name);
      added.push_back(static_cast<std::size_t>(db_.changes()));
    }
    tx.commit();
  } catch (IoError& e) {  // an SQLite error names this store: it is the other one's
    throw IoError(SourceLocation(other_path), "cannot merge this store: " + e.detail());
  }
  return added;
}

}  // namespace assay::core
