// Database: one WordNet 3.0 database (the files of the Debian package wordnet-base, read at run
// time, never copied into the repository), parsed once per process and shared by everything
// that reads WordNet — the lemmatiser (text::WordNetLemmatizer), the knowledge graph
// (knowledge::WordNetGraph) and AEON's relations (aeon::WordNetRelations).
//
// open(dir) returns the process's instance for `dir` (the same object for every caller while
// any holds it); each half loads on first use: lexicon() reads index.* and *.exc, synsets()
// reads data.* (and the lexicon, on another thread meanwhile). A lemmatiser therefore never
// pays for the synsets. Loading is thread-safe: concurrent first calls load once and wait for
// it; a failed load throws the loader's error (MissingResourceError naming wordnet-base,
// ParseError with file:line:column) to every caller and is retried by the next call. After
// loading, both halves are immutable and may be read from any number of threads.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "wordnet/lexicon.h"
#include "wordnet/part_of_speech.h"
#include "wordnet/synset_table.h"

namespace assay::wordnet {

// Where Debian's wordnet-base installs the database, and the package's name for messages.
inline constexpr const char* kDefaultDir = "/usr/share/wordnet";
inline constexpr const char* kDebianPackage = "wordnet-base";

class Database {
 public:
  // The shared database for `dir` (paths naming the same directory share one instance). Reads
  // nothing: the first lexicon() or synsets() call does.
  static std::shared_ptr<const Database> open(const std::string& dir = kDefaultDir);

  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const std::string& dir() const { return dir_; }
  const Lexicon& lexicon() const;
  const SynsetTable& synsets() const;  // also loads the lexicon (the index names synsets)

  // The synsets of an exact lemma as `pos`, most frequent first; empty when it is none.
  std::span<const SynsetId> senses(std::string_view lemma, PartOfSpeech pos) const;

 private:
  explicit Database(std::string dir) : dir_(std::move(dir)) {}

  std::string dir_;
  mutable std::mutex lexicon_mutex_, synsets_mutex_;  // taken in the order synsets, lexicon
  mutable std::unique_ptr<const Lexicon> lexicon_;
  mutable std::unique_ptr<const SynsetTable> synsets_;
  mutable std::atomic<const Lexicon*> lexicon_ready_{nullptr};
  mutable std::atomic<const SynsetTable*> synsets_ready_{nullptr};
};

}  // namespace assay::wordnet
