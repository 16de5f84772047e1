// Noun number, indefinite articles and capitalisation for mutated tokens: "actors" ->
// lemmatise -> "actor" -> counterpart "actress" -> pluralize -> "actresses", with the case of
// the original token carried over ("Actors" -> "Actresses").
//
// Plurals: WordNet's irregular forms first (noun.exc read backwards: child -> children, mouse
// -> mice, datum -> data), then the English rules (s x z ch sh -> +es, consonant + y -> ies,
// compound -man -> -men, otherwise +s). Choices where WordNet is no guide are documented in
// docs/text.md: a few archaic or specialised plurals in noun.exc are not used (brother ->
// brothers, not brethren), person -> people, and -man nouns that are not compounds of "man"
// (human, German, shaman, ...) take -s.
#pragma once

#include <string>
#include <string_view>

#include "text/wordnet_lemmatizer.h"

namespace assay::text {

class Inflector {
 public:
  // Keeps a reference: `lemmatizer` must outlive the inflector.
  explicit Inflector(const WordNetLemmatizer& lemmatizer) : lemmatizer_(lemmatizer) {}

  // Plural of a singular noun (lower-case lookup; the case of `noun` is transferred).
  std::string pluralize(std::string_view noun) const;
  // Singular of a plural noun: WordNet's noun lemma when it knows one, else the reversed rules.
  std::string singularize(std::string_view noun) const;

 private:
  const WordNetLemmatizer& lemmatizer_;
};

// "a" or "an" before `word`, by its first sound: "an hour", "a unicorn", "an FBI", "a user",
// "an 8", "a one".
std::string_view indefinite_article(std::string_view word);

// `replacement` with the capitalisation pattern of `original`: all upper case ("ACTOR" ->
// "ACTRESS"), first letter upper ("Actor" -> "Actress"), otherwise `replacement` unchanged.
std::string transfer_case(std::string_view original, std::string_view replacement);

}  // namespace assay::text
