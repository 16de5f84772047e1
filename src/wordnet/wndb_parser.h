// Parsers for single lines of the WordNet database files (format: `man 5 wndb`): data.<pos>
// synset records, index.<pos> lemma records and <pos>.exc exception lines. They only split
// and validate fields; lexicon.cc and synset_table.cc assemble the database. Every error is a
// ParseError at the given location with a 1-based column where one is known.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "wordnet/part_of_speech.h"

namespace assay::wordnet::wndb {

// Pointer kinds the database keeps; every other symbol parses to kOther and is dropped.
enum class PointerKind : std::uint8_t {
  kHypernym,          // @
  kInstanceHypernym,  // @i
  kHyponym,           // ~
  kInstanceHyponym,   // ~i
  kAntonym,           // !
  kDerivation,        // +
  kOther,
};

struct DataPointer {
  PointerKind kind = PointerKind::kOther;
  std::uint32_t target_offset = 0;
  PartOfSpeech target_pos = PartOfSpeech::kNoun;
  // 1-based word numbers of a lexical pointer; 0/0 for a semantic (synset) pointer.
  std::uint8_t source_word = 0;
  std::uint8_t target_word = 0;
};

struct DataWord {
  std::string_view lemma;  // as written (case kept, adjective markers such as "(a)" removed)
};

struct DataRecord {
  std::uint32_t offset = 0;
  std::uint8_t lex_filenum = 0;
  PartOfSpeech pos = PartOfSpeech::kNoun;
  bool satellite = false;  // ss_type 's'
  std::vector<DataWord> words;
  std::vector<DataPointer> pointers;  // kOther pointers are not kept
  std::string_view gloss;             // without the leading "| " and trailing spaces
};

struct IndexRecord {
  std::string_view lemma;
  PartOfSpeech pos = PartOfSpeech::kNoun;
  std::vector<std::uint32_t> offsets;  // sense order: most frequent first
  std::uint32_t n_tagged = 0;          // tagsense_cnt: leading senses seen in SemCor
};

// True for the licence preamble lines (they start with two spaces) that precede the records.
inline bool is_preamble(std::string_view line) {
  return line.size() >= 2 && line[0] == ' ' && line[1] == ' ';
}

// `line` must outlive the returned views.
DataRecord parse_data_line(std::string_view line, const core::SourceLocation& where);
IndexRecord parse_index_line(std::string_view line, const core::SourceLocation& where);
// The same into `out`, reusing its storage (the loaders read about 155,000 index lines).
void parse_index_line(std::string_view line, const core::SourceLocation& where, IndexRecord* out);
// "inflected base [base ...]": returns the fields (at least two).
std::vector<std::string_view> parse_exception_line(std::string_view line,
                                                   const core::SourceLocation& where);

}  // namespace assay::wordnet::wndb
