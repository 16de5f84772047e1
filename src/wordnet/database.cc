#include "wordnet/database.h"

#include <filesystem>
#include <future>
#include <map>
#include <system_error>

namespace assay::wordnet {
namespace {

// One key per directory: the canonical path when it exists, else the normalised spelling (a
// missing directory fails on first use, with the path as given).
std::string directory_key(const std::string& dir) {
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(dir, ec);
  if (!ec) return canonical.lexically_normal().string();
  return std::filesystem::path(dir).lexically_normal().string();
}

}  // namespace

std::shared_ptr<const Database> Database::open(const std::string& dir) {
  // Weak references: a database lives while someone holds it, so a directory rewritten between
  // two uses (tests do) is read again, and a process that is done with WordNet frees it.
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Database>> registry;
  const std::string key = directory_key(dir);
  const std::lock_guard lock(mutex);
  for (auto it = registry.begin(); it != registry.end();) {
    it = it->second.expired() && it->first != key ? registry.erase(it) : std::next(it);
  }
  if (auto db = registry[key].lock()) return db;
  std::shared_ptr<const Database> db(new Database(dir));
  registry[key] = db;
  return db;
}

const Lexicon& Database::lexicon() const {
  if (const Lexicon* ready = lexicon_ready_.load(std::memory_order_acquire)) return *ready;
  const std::lock_guard lock(lexicon_mutex_);
  if (!lexicon_) {
    lexicon_ = Lexicon::load(dir_);
    lexicon_ready_.store(lexicon_.get(), std::memory_order_release);
  }
  return *lexicon_;
}

const SynsetTable& Database::synsets() const {
  if (const SynsetTable* ready = synsets_ready_.load(std::memory_order_acquire)) return *ready;
  const std::lock_guard lock(synsets_mutex_);
  if (!synsets_) {
    // The two halves share nothing until the index is resolved: read the lexicon on another
    // thread while this one reads data.*. A data error is reported before a lexicon error.
    std::future<const Lexicon*> lexicon;
    if (!lexicon_ready_.load(std::memory_order_acquire)) {
      lexicon = std::async(std::launch::async, [this] { return &this->lexicon(); });
    }
    std::unique_ptr<SynsetTable> table;
    try {
      table = SynsetTable::load(dir_);
    } catch (...) {
      if (lexicon.valid()) lexicon.wait();
      throw;
    }
    const Lexicon& lex = lexicon.valid() ? *lexicon.get() : this->lexicon();
    table->resolve_index(lex);
    synsets_ = std::move(table);
    synsets_ready_.store(synsets_.get(), std::memory_order_release);
  }
  return *synsets_;
}

std::span<const SynsetId> Database::senses(std::string_view lemma, PartOfSpeech pos) const {
  const SynsetTable& table = synsets();
  const Lexicon::Entry* entry = lexicon().find(lemma, pos);
  if (!entry) return {};
  return table.senses(*entry);
}

}  // namespace assay::wordnet
