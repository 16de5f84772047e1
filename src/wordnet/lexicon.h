// Lexicon: the lemma side of a WordNet database (man 5 wndb) — index.{noun,verb,adj,adv}, which
// synsets each lemma names in sense order and how many of them were seen in SemCor, and
// {noun,verb,adj,adv}.exc, the irregular inflections. The synsets themselves are in
// SynsetTable; Database holds both and loads each once.
//
// Lookups are by exact lemma as the files write it (lower case, '_' between words); callers
// normalise. Immutable after load: all const methods may be called from any number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/string_hash.h"
#include "wordnet/part_of_speech.h"

namespace assay::wordnet {

class Lexicon {
 public:
  // 8 bytes: the index of WordNet 3.0 has 155,327 entries (the most senses of one is 59).
  struct Entry {
    std::uint32_t first = 0;     // index of the first sense's offset in all_offsets()
    std::uint16_t n_senses = 0;  // synset_cnt
    std::uint16_t n_tagged = 0;  // tagsense_cnt: the leading senses seen in SemCor
  };
  // The lines of <pos>.exc that start with one form, in file order, each with the bases it
  // lists. A form has more than one line only a few times in WordNet 3.0 (noun.exc: "aurar
  // eyir" and "aurar eyrir"); the lemmatiser follows NLTK and keeps the last.
  using ExceptionLines = std::vector<std::vector<std::string>>;

  // Reads index.<pos> and <pos>.exc for the four parts of speech from `dir`. Throws
  // core::MissingResourceError naming the Debian package wordnet-base when a file is absent,
  // core::ParseError with file:line:column for a malformed line, a lemma of another part of
  // speech, a lemma listed twice or one with more than 65,535 senses.
  static std::unique_ptr<Lexicon> load(const std::string& dir);

  // nullptr when `lemma` is not in index.<pos>.
  const Entry* find(std::string_view lemma, PartOfSpeech pos) const;
  bool is_lemma(std::string_view lemma, PartOfSpeech pos) const { return find(lemma, pos); }
  // The entry's synset offsets (byte offsets into data.<pos>), most frequent sense first.
  std::span<const std::uint32_t> offsets(const Entry& e) const {
    return {offsets_.data() + e.first, e.n_senses};
  }

  const ExceptionLines* exception_lines(std::string_view form, PartOfSpeech pos) const;
  // Forms whose <pos>.exc line lists `base`, in file order (every line counts); nullptr when none.
  const std::vector<std::string>* exception_forms(std::string_view base, PartOfSpeech pos) const;

  // Every entry's offsets, index.noun's first, then verb, adj, adv (SynsetTable resolves them).
  const std::vector<std::uint32_t>& all_offsets() const { return offsets_; }
  // The part of speech whose index lists all_offsets()[i].
  PartOfSpeech pos_of_offset(std::size_t i) const;
  // The lemma whose entry holds all_offsets()[i] and its line in index.<pos> (for messages:
  // a linear search, and the file is read again).
  std::string_view lemma_of_offset(std::size_t i, std::uint64_t* line) const;
  std::string index_path(PartOfSpeech pos) const;

  std::size_t n_lemmas() const;                           // index entries, all parts of speech
  std::size_t n_exception_lines(PartOfSpeech pos) const;  // lines of <pos>.exc
  const std::string& dir() const { return dir_; }

 private:
  template <class V>
  using StringMap = std::unordered_map<std::string, V, core::StringHash, std::equal_to<>>;

  Lexicon() = default;
  void read_index(const std::string& path, PartOfSpeech pos);
  void read_exceptions(const std::string& path, PartOfSpeech pos);

  std::string dir_;
  std::vector<std::uint32_t> offsets_;
  std::array<std::size_t, kNumPartsOfSpeech + 1> pos_first_{};  // into offsets_
  std::array<StringMap<Entry>, kNumPartsOfSpeech> index_;
  std::array<StringMap<ExceptionLines>, kNumPartsOfSpeech> exceptions_;
  std::array<StringMap<std::vector<std::string>>, kNumPartsOfSpeech> exception_forms_;
  std::array<std::size_t, kNumPartsOfSpeech> n_exception_lines_{};
};

// The path of `name` in `dir`; throws core::MissingResourceError naming the Debian package
// wordnet-base when it is not a regular file.
std::string require_database_file(const std::string& dir, const std::string& name);

}  // namespace assay::wordnet
