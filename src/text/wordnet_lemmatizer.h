// WordNet lemmatiser: morphy as NLTK implements it (nltk.corpus.reader.wordnet._morphy and
// WordNetLemmatizer.lemmatize), over the lexicon (index.* and *.exc) of the process's shared
// WordNet database (wordnet/database.h):
//  1. a form listed in <pos>.exc yields the form itself and its listed bases, keeping those
//     that are lemmas of that part of speech in index.<pos>;
//  2. otherwise the detachment rules (nouns: s ses ves xes zes ches shes men ies; verbs: s ies
//     es es ed ed ing ing; adjectives: er est er est) are applied once and the form itself plus
//     the results that are lemmas are returned; if none is, the rules are applied again to all
//     results, repeatedly, until some are lemmas or nothing is left.
// lemmatize() returns the shortest candidate (the first of equal length), else the word.
// Matching is case-sensitive, as in NLTK (WordNet's lemmas are lower case).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wordnet/database.h"

namespace assay::text {

using wordnet::PartOfSpeech;

// The WordNet part of speech of a Lingua/Penn tag: nn* noun, vb* verb, jj* adjective, rb*
// adverb; nullopt for the rest.
std::optional<PartOfSpeech> wordnet_pos_of_tag(std::string_view tag);

class WordNetLemmatizer {
 public:
  // Reads the lexicon of the database in `dir` unless this process has. Throws
  // core::MissingResourceError naming the Debian package when a file is absent,
  // core::ParseError with file:line for a malformed line.
  explicit WordNetLemmatizer(const std::string& dir = wordnet::kDefaultDir);
  explicit WordNetLemmatizer(std::shared_ptr<const wordnet::Database> database);

  // NLTK's _morphy: the candidate lemmas in NLTK's order (empty when WordNet knows none).
  std::vector<std::string> morphy(std::string_view form, PartOfSpeech pos) const;
  // NLTK's WordNetLemmatizer.lemmatize.
  std::string lemmatize(std::string_view word, PartOfSpeech pos) const;

  bool is_lemma(std::string_view word, PartOfSpeech pos) const;
  // Bases listed for an inflected form in <pos>.exc, nullptr when it is not listed (a form on
  // several lines: the last line, as in NLTK).
  const std::vector<std::string>* exception_bases(std::string_view form, PartOfSpeech pos) const;
  // Inflected forms listed in <pos>.exc for a base, in file order (empty when none).
  std::vector<std::string> exception_forms(std::string_view base, PartOfSpeech pos) const;

  const std::shared_ptr<const wordnet::Database>& database() const { return database_; }

 private:
  std::shared_ptr<const wordnet::Database> database_;
  const wordnet::Lexicon& lexicon_;
};

}  // namespace assay::text
