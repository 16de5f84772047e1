// AnswerCache: every answer of every model under test, in one SQLite file keyed by
// (model identity, exact text), so an interrupted run resumes without re-querying and a rerun
// costs nothing.
//
// Schema: models(id, identity UNIQUE), answers(model, text, scores) with primary key
// (model, text), model_labels(model, labels as a JSON array) and model_times(model,
// first_stored: seconds since the epoch of its first stored answer); scores are stored as text,
// comma-separated shortest round-trip decimals, so a cached answer has the bits of the original.
// The file uses core::SqliteStore (WAL, synchronous=NORMAL): store() writes a batch in one
// transaction, so after kill -9 an answer is there whole or not at all, and several processes may
// read (and write) the same file at once.
//
// Thread-safe (one connection guarded by a mutex). Throws core::IoError naming the file.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace assay::core {
class SqliteStore;
}

namespace assay::models {

class AnswerCache {
 public:
  explicit AnswerCache(const std::string& path);
  ~AnswerCache();
  AnswerCache(const AnswerCache&) = delete;
  AnswerCache& operator=(const AnswerCache&) = delete;

  const std::string& path() const { return path_; }

  // Cached scores of each text (nullopt where there is none), read in one transaction.
  std::vector<std::optional<std::vector<double>>> find(const std::string& identity,
                                                       const std::vector<std::string>& texts);
  // Stores (or replaces) the answers in one transaction. Precondition: same sizes.
  void store(const std::string& identity, const std::vector<std::string>& texts,
             const std::vector<std::vector<double>>& scores);
  // The labels stored for `identity` (the names of its scores), nullopt when none are.
  std::optional<std::vector<std::string>> labels(const std::string& identity);
  // Stores (or replaces) them.
  void store_labels(const std::string& identity, const std::vector<std::string>& labels);
  // Number of answers cached for `identity`.
  std::int64_t count(const std::string& identity);
  // When the first answer of `identity` was stored (seconds since the epoch); nullopt when none
  // was, or the cache predates this record.
  std::optional<double> first_stored(const std::string& identity);

  // The text form of a score vector and back (exposed for tests). decode_scores returns
  // nullopt on malformed text.
  static std::string encode_scores(const std::vector<double>& scores);
  static std::optional<std::vector<double>> decode_scores(std::string_view text);

 private:
  std::optional<std::int64_t> model_id(const std::string& identity, bool create);

  std::string path_;
  std::unique_ptr<core::SqliteStore> store_;
  std::mutex mutex_;
};

}  // namespace assay::models
