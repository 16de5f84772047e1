#include "fairness/fairness_chunk_store.h"

namespace assay::fairness {
namespace {

const core::StoreIdentity& identity() {
  static const core::StoreIdentity id{{"format", "assay fair test chunks, v1"}};
  return id;
}

}  // namespace

FairnessChunkStore::FairnessChunkStore(const std::string& path)
    : store_(path, "fair_test_identity") {
  store_.db().exec(
      "CREATE TABLE IF NOT EXISTS fair_test_chunks (key TEXT PRIMARY KEY, result TEXT NOT NULL)");
  store_.check_identity(identity());
}

std::size_t FairnessChunkStore::merge(const std::string& other_path) {
  std::lock_guard lock(mutex_);
  return store_.merge(other_path, {"fair_test_chunks"}, identity()).at(0);
}

std::unordered_set<std::string> FairnessChunkStore::finished_keys() const {
  std::lock_guard lock(mutex_);
  std::unordered_set<std::string> out;
  auto q = store_.db().prepare("SELECT key FROM fair_test_chunks");
  while (q.step()) out.insert(q.column_text(0));
  return out;
}

void FairnessChunkStore::put(const std::string& key, const std::string& result) {
  std::lock_guard lock(mutex_);
  auto insert = store_.db().prepare("INSERT OR IGNORE INTO fair_test_chunks VALUES (?, ?)");
  insert.bind(1, std::string_view(key)).bind(2, std::string_view(result));
  insert.run();
}

std::optional<std::string> FairnessChunkStore::get(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto q = store_.db().prepare("SELECT result FROM fair_test_chunks WHERE key = ?");
  q.bind(1, std::string_view(key));
  if (!q.step()) return std::nullopt;
  return q.column_text(0);
}

}  // namespace assay::fairness
