#include "models/answer_cache.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/check.h"
#include "core/error.h"
#include "core/sqlite_store.h"

namespace assay::models {

AnswerCache::AnswerCache(const std::string& path)
    : path_(path), store_(std::make_unique<core::SqliteStore>(path)) {
  store_->exec(
      "CREATE TABLE IF NOT EXISTS models (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE);"
      "CREATE TABLE IF NOT EXISTS answers (model INTEGER NOT NULL, text TEXT NOT NULL, "
      "scores TEXT NOT NULL, PRIMARY KEY (model, text)) WITHOUT ROWID;"
      "CREATE TABLE IF NOT EXISTS model_labels (model INTEGER PRIMARY KEY, labels TEXT NOT "
      "NULL);"
      "CREATE TABLE IF NOT EXISTS model_times (model INTEGER PRIMARY KEY, first_stored REAL NOT "
      "NULL);");
}

AnswerCache::~AnswerCache() = default;

std::string AnswerCache::encode_scores(const std::vector<double>& scores) {
  std::string out;
  char buffer[32];
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (i) out.push_back(',');
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, scores[i]);
    out.append(buffer, r.ptr);
  }
  return out;
}

std::optional<std::vector<double>> AnswerCache::decode_scores(std::string_view text) {
  std::vector<double> out;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    double v = 0;
    const auto r = std::from_chars(p, end, v);
    if (r.ec != std::errc() || !std::isfinite(v)) return std::nullopt;  // nan, inf, 1e999
    out.push_back(v);
    p = r.ptr;
    if (p < end) {
      if (*p != ',') return std::nullopt;
      ++p;
      if (p == end) return std::nullopt;
    }
  }
  return out;
}

std::optional<std::int64_t> AnswerCache::model_id(const std::string& identity, bool create) {
  auto select = store_->prepare("SELECT id FROM models WHERE identity = ?");
  select.bind(1, identity);
  if (select.step()) return select.column_int64(0);
  if (!create) return std::nullopt;
  auto insert = store_->prepare("INSERT OR IGNORE INTO models (identity) VALUES (?)");
  insert.bind(1, identity);
  insert.run();
  select.reset();
  select.bind(1, identity);
  ASSAY_CHECK(select.step());
  return select.column_int64(0);
}

std::vector<std::optional<std::vector<double>>> AnswerCache::find(
    const std::string& identity, const std::vector<std::string>& texts) {
  std::lock_guard lock(mutex_);
  std::vector<std::optional<std::vector<double>>> out(texts.size());
  store_->exec("BEGIN");
  try {
    if (const auto id = model_id(identity, false)) {
      auto select = store_->prepare("SELECT scores FROM answers WHERE model = ? AND text = ?");
      for (std::size_t i = 0; i < texts.size(); ++i) {
        select.bind(1, *id);
        select.bind(2, std::string_view(texts[i]));
        if (select.step()) {
          out[i] = decode_scores(select.column_text(0));
          if (!out[i]) {
            throw core::ParseError(core::SourceLocation(path_),
                                   "malformed cached scores for a text of model " + identity);
          }
        }
        select.reset();
      }
    }
    store_->exec("COMMIT");
  } catch (...) {
    store_->exec("ROLLBACK");
    throw;
  }
  return out;
}

void AnswerCache::store(const std::string& identity, const std::vector<std::string>& texts,
                        const std::vector<std::vector<double>>& scores) {
  ASSAY_CHECK(texts.size() == scores.size());
  std::lock_guard lock(mutex_);
  core::SqliteTransaction transaction(*store_);
  const auto id = *model_id(identity, true);
  auto insert =
      store_->prepare("INSERT OR REPLACE INTO answers (model, text, scores) VALUES (?, ?, ?)");
  for (std::size_t i = 0; i < texts.size(); ++i) {
    insert.bind(1, id);
    insert.bind(2, std::string_view(texts[i]));
    insert.bind(3, std::string_view(encode_scores(scores[i])));
    insert.run();
  }
  auto first = store_->prepare(
      "INSERT OR IGNORE INTO model_times (model, first_stored) VALUES (?, "
      "(julianday('now') - 2440587.5) * 86400.0)");
  first.bind(1, id);
  first.run();
  transaction.commit();
}

std::optional<double> AnswerCache::first_stored(const std::string& identity) {
  std::lock_guard lock(mutex_);
  const auto id = model_id(identity, false);
  if (!id) return std::nullopt;
  auto select = store_->prepare("SELECT first_stored FROM model_times WHERE model = ?");
  select.bind(1, *id);
  if (!select.step()) return std::nullopt;
  return select.column_double(0);
}

std::optional<std::vector<std::string>> AnswerCache::labels(const std::string& identity) {
  std::lock_guard lock(mutex_);
  const auto id = model_id(identity, false);
  if (!id) return std::nullopt;
  auto select = store_->prepare("SELECT labels FROM model_labels WHERE model = ?");
  select.bind(1, *id);
  if (!select.step()) return std::nullopt;
  const auto j = nlohmann::json::parse(select.column_text(0), nullptr, false);
  std::vector<std::string> out;
  if (j.is_array()) {
    for (const auto& label : j) {
      if (!label.is_string()) break;
      out.push_back(label.get<std::string>());
    }
  }
  if (out.empty() || out.size() != j.size()) {
    throw core::ParseError(core::SourceLocation(path_),
                           "malformed cached labels of model " + identity);
  }
  return out;
}

void AnswerCache::store_labels(const std::string& identity,
                               const std::vector<std::string>& labels) {
  std::lock_guard lock(mutex_);
  core::SqliteTransaction transaction(*store_);
  const auto id = *model_id(identity, true);
  auto insert =
      store_->prepare("INSERT OR REPLACE INTO model_labels (model, labels) VALUES (?, ?)");
  insert.bind(1, id);
  insert.bind(2, std::string_view(nlohmann::json(labels).dump()));
  insert.run();
  transaction.commit();
}

std::int64_t AnswerCache::count(const std::string& identity) {
  std::lock_guard lock(mutex_);
  const auto id = model_id(identity, false);
  if (!id) return 0;
  auto select = store_->prepare("SELECT COUNT(*) FROM answers WHERE model = ?");
  select.bind(1, *id);
  select.step();
  return select.column_int64(0);
}

}  // namespace assay::models
