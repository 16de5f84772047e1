// WordNet lemmatiser: morphy as NLTK implements it (nltk.corpus.reader.wordnet._morphy and
// WordNetLemmatizer.lemmatize), over the Debian WordNet 3.0 files read at run time:
//  1. a form listed in <pos>.exc yields the form itself and its listed bases, keeping those
//     that are lemmas of that part of speech in index.<pos>;
//  2. otherwise the detachment rules (nouns: s ses ves xes zes ches shes men ies; verbs: s ies
//     es es ed ed ing ing; adjectives: er est er est) are applied once and the form itself plus
//     the results that are lemmas are returned; if none is, the rules are applied again to all
//     results, repeatedly, until some are lemmas or nothing is left.
// lemmatize() returns the shortest candidate (the first of equal length), else the word.
// Matching is case-sensitive, as in NLTK (WordNet's lemmas are lower case).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "text/lingua_tables.h"

namespace assay::text {

enum class WordPos : std::uint8_t { kNoun = 0, kVerb = 1, kAdjective = 2, kAdverb = 3 };

// The WordNet part of speech of a Lingua/Penn tag: nn* noun, vb* verb, jj* adjective, rb*
// adverb; nullopt for the rest.
std::optional<WordPos> wordnet_pos_of_tag(std::string_view tag);

class WordNetLemmatizer {
 public:
  static constexpr const char* kDefaultDir = "/usr/share/wordnet";
  static constexpr const char* kDebianPackage = "wordnet-base";

  // Reads index.{noun,verb,adj,adv} and {noun,verb,adj,adv}.exc from `dir`. Throws
  // core::MissingResourceError naming the Debian package when a file is absent,
  // core::ParseError with file:line for a malformed line.
  explicit WordNetLemmatizer(const std::string& dir = kDefaultDir);

  // NLTK's _morphy: the candidate lemmas in NLTK's order (empty when WordNet knows none).
  std::vector<std::string> morphy(std::string_view form, WordPos pos) const;
  // NLTK's WordNetLemmatizer.lemmatize.
  std::string lemmatize(std::string_view word, WordPos pos) const;

  bool is_lemma(std::string_view word, WordPos pos) const;
  // Bases listed for an inflected form in <pos>.exc, nullptr when it is not listed.
  const std::vector<std::string>* exception_bases(std::string_view form, WordPos pos) const;
  // Inflected forms listed in <pos>.exc for a base, in file order (empty when none).
  std::vector<std::string> exception_forms(std::string_view base, WordPos pos) const;

 private:
  using Exceptions = std::unordered_map<std::string, std::vector<std::string>,
                                        TransparentStringHash, std::equal_to<>>;
  void load_index(const std::string& path, WordPos pos);
  void load_exceptions(const std::string& path, WordPos pos);

  // Lemma -> bit mask of the parts of speech it is indexed under.
  std::unordered_map<std::string, std::uint8_t, TransparentStringHash, std::equal_to<>> lemmas_;
  Exceptions exceptions_[4];
  std::unordered_map<std::string, std::vector<std::string>, TransparentStringHash, std::equal_to<>>
      inverse_exceptions_[4];
};

}  // namespace assay::text
