// SynsetTable: the synset side of a WordNet database (man 5 wndb) — data.{noun,verb,adj,adv}:
// every synset's words, gloss, lexicographer file and the pointers the database keeps
// (hypernyms, hyponyms, their instance forms, antonyms, derivations), each resolved to the
// synset it names. It also resolves the Lexicon's index to synsets, so senses() answers for a
// lemma without a search.
//
// Synsets are numbered 0..size()-1 in file order (data.noun first, then verb, adj, adv); the
// numbers are the knowledge graph's NodeIds. Immutable after load: thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wordnet/lexicon.h"
#include "wordnet/part_of_speech.h"
#include "wordnet/wndb_parser.h"

namespace assay::wordnet {

using SynsetId = std::uint32_t;

struct Synset {
  std::uint32_t offset = 0;  // byte offset in data.<pos>
  PartOfSpeech pos = PartOfSpeech::kNoun;
  bool satellite = false;        // an adjective satellite ('s')
  std::uint8_t lex_filenum = 0;  // lexicographer file (noun.person is 18)
  std::uint32_t first_word = 0, n_words = 0;
  std::uint32_t first_pointer = 0, n_pointers = 0;
  std::uint32_t gloss_begin = 0, gloss_size = 0;
};

struct Pointer {
  wndb::PointerKind kind = wndb::PointerKind::kOther;
  // 1-based word numbers of a lexical pointer (a relation between two words); 0/0 for a
  // semantic pointer (between the synsets as wholes).
  std::uint8_t source_word = 0, target_word = 0;
  SynsetId target = 0;
};

class SynsetTable {
 public:
  // Reads data.<pos> for the four parts of speech from `dir` and resolves every pointer.
  // Throws core::MissingResourceError naming wordnet-base when a file is absent,
  // core::ParseError with file:line:column for a malformed record, a synset in the wrong file,
  // a duplicate offset, or a pointer to an offset or word that does not exist.
  static std::unique_ptr<SynsetTable> load(const std::string& dir);

  // Maps every offset of the lexicon's index to its synset (senses() needs it). Throws
  // core::ParseError naming index.<pos> and the lemma's line when an offset is not a synset.
  // Called once, by Database, before the table is shared.
  void resolve_index(const Lexicon& lexicon);

  std::size_t size() const { return synsets_.size(); }
  std::size_t n_pointers() const { return pointers_.size(); }
  // Throws std::out_of_range for an id >= size().
  const Synset& at(SynsetId id) const { return synsets_.at(id); }
  std::span<const Pointer> pointers(const Synset& s) const {
    return {pointers_.data() + s.first_pointer, s.n_pointers};
  }
  // Word `i` (0-based, < s.n_words) as data.<pos> writes it: case kept, adjective markers
  // such as "(a)" removed, '_' between words.
  std::string_view word(const Synset& s, std::uint32_t i) const {
    const Span w = word_spans_[s.first_word + i];
    return std::string_view(text_).substr(w.begin, w.size);
  }
  std::string_view gloss(const Synset& s) const {
    return std::string_view(text_).substr(s.gloss_begin, s.gloss_size);
  }
  // The synsets of a lexicon entry, most frequent sense first (after resolve_index).
  std::span<const SynsetId> senses(const Lexicon::Entry& e) const {
    return {index_synsets_.data() + e.first, e.n_senses};
  }
  std::optional<SynsetId> find(std::uint32_t offset, PartOfSpeech pos) const;

 private:
  struct Span {
    std::uint32_t begin = 0, size = 0;
  };
  class Loader;

  SynsetTable() = default;

  std::vector<Synset> synsets_;
  std::vector<Pointer> pointers_;
  std::vector<Span> word_spans_;  // into text_
  std::string text_;              // words and glosses, concatenated
  // (offset, synset) sorted by offset, one list per part of speech.
  std::array<std::vector<std::pair<std::uint32_t, SynsetId>>, kNumPartsOfSpeech> by_offset_;
  std::vector<SynsetId> index_synsets_;  // parallel to Lexicon::all_offsets()
};

}  // namespace assay::wordnet
