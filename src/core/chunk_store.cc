#include "core/chunk_store.h"

#include <utility>

#include "core/error.h"

namespace assay::core {

ChunkStore::ChunkStore(const std::string& path, const std::string& kind, const std::string& format,
                       ResultCheck check)
    : store_(path, kind + "_identity"),
      table_(kind + "_chunks"),
      identity_{{"format", format}},
      check_(std::move(check)) {
  store_.db().exec("CREATE TABLE IF NOT EXISTS \"" + table_ +
                   "\" (key TEXT PRIMARY KEY, result TEXT NOT NULL)");
  store_.check_identity(identity_);
}

std::size_t ChunkStore::merge(const std::string& other_path) {
  std::lock_guard lock(mutex_);
  const auto check_rows = [&](SqliteStore& db) {
    if (!check_) return;
    auto rows = db.prepare("SELECT key, result FROM merge_source.\"" + table_ + "\"");
    while (rows.step()) {
      try {
        check_(rows.column_text(1));
      } catch (const Error& e) {
        throw ParseError(SourceLocation(other_path),
                         "chunk '" + rows.column_text(0) + "': " + e.detail());
      }
    }
  };
  return store_.merge(other_path, {table_}, identity_, check_rows).at(0);
}

std::unordered_set<std::string> ChunkStore::finished_keys() const {
  std::lock_guard lock(mutex_);
  std::unordered_set<std::string> out;
  auto q = store_.db().prepare("SELECT key FROM \"" + table_ + "\"");
  while (q.step()) out.insert(q.column_text(0));
  return out;
}

void ChunkStore::put(const std::string& key, const std::string& result) {
  std::lock_guard lock(mutex_);
  auto insert = store_.db().prepare("INSERT OR IGNORE INTO \"" + table_ + "\" VALUES (?, ?)");
  insert.bind(1, std::string_view(key)).bind(2, std::string_view(result));
  insert.run();
}

std::optional<std::string> ChunkStore::get(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto q = store_.db().prepare("SELECT result FROM \"" + table_ + "\" WHERE key = ?");
  q.bind(1, std::string_view(key));
  if (!q.step()) return std::nullopt;
  return q.column_text(0);
}

}  // namespace assay::core
