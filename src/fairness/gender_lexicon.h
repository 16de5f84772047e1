// GenderLexicon: the curated gender-pair lexicon (data/lexicon/gender-pairs.tsv; its README
// gives the sources): lower-case singular person nouns paired with their counterpart of the
// other gender, by category (kinship, partner, address, nobility, religious, occupation, age,
// general, fiction). The gender perturbation consults it before the knowledge graph; a word's
// counterpart comes from the first row the word appears in, in either column.
//
// Format: UTF-8, '#' comments and blank lines ignored, rows `male<TAB>female<TAB>category<TAB>
// source`, '_' inside a word standing for a space. Immutable after load: thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "knowledge/gender_counterpart_finder.h"

namespace assay::fairness {

class GenderLexicon {
 public:
  struct Entry {
    std::string counterpart;  // lemma of the other gender, spaces for '_'
    knowledge::Gender gender = knowledge::Gender::kNone;  // of the word itself
    std::string category;
    std::string source;
  };

  // Throws core::IoError when the file cannot be read and core::ParseError naming file:line
  // for a row without 4 fields, a word that is not lower case, or a word paired with itself.
  static GenderLexicon load(const std::string& path);
  // The shipped lexicon.
  static std::string default_path();

  // The entry of a lower-case lemma (spaces, not '_'), or null.
  const Entry* find(std::string_view lemma) const;
  std::size_t size() const { return entries_.size(); }

 private:
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace assay::fairness
