// The part of speech of a WordNet lemma or synset — the one enum the lemmatiser (src/text), the
// knowledge graph (src/knowledge) and AEON's relations (src/aeon) share. Adjective satellites
// (WordNet's 's') are adjectives; Synset::satellite keeps the distinction.
#pragma once

#include <array>
#include <cstdint>

namespace assay::wordnet {

enum class PartOfSpeech : std::uint8_t { kNoun = 0, kVerb = 1, kAdjective = 2, kAdverb = 3 };

inline constexpr std::size_t kNumPartsOfSpeech = 4;

inline constexpr std::array<PartOfSpeech, kNumPartsOfSpeech> kAllPartsOfSpeech = {
    PartOfSpeech::kNoun, PartOfSpeech::kVerb, PartOfSpeech::kAdjective, PartOfSpeech::kAdverb};

// The suffix of the database's file names: data.noun, index.verb, adj.exc, ...
inline constexpr const char* file_suffix(PartOfSpeech pos) {
  constexpr const char* kSuffix[] = {"noun", "verb", "adj", "adv"};
  return kSuffix[static_cast<std::size_t>(pos)];
}

// WordNet's one-letter code (n, v, a, r; 's' for satellites is Synset::satellite's business).
inline constexpr char pos_letter(PartOfSpeech pos) {
  constexpr char kLetter[] = {'n', 'v', 'a', 'r'};
  return kLetter[static_cast<std::size_t>(pos)];
}

}  // namespace assay::wordnet
