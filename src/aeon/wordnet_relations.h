// WordNetRelations: AEON's word-pair tests for the offline SemEval, over the process's shared
// WordNet database (the knowledge graph and the lemmatiser read the same one): two words are
// synonyms when, after WordNet lemmatisation, they share a synset in some part of speech;
// antonyms when a lexical antonym pointer links the words or their lemmas in any part of
// speech (either direction); and their path similarity is 1 / (1 + the shortest hypernym path)
// between the frequent senses of two nouns or two verbs.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "knowledge/wordnet_graph.h"
#include "text/wordnet_lemmatizer.h"

namespace assay::aeon {

class WordNetRelations {
 public:
  // Opens the WordNet database in `dir` (Debian wordnet-base); the loaders' errors propagate.
  explicit WordNetRelations(const std::string& dir = wordnet::kDefaultDir);
  explicit WordNetRelations(std::shared_ptr<const wordnet::Database> database);

  bool synonyms(std::string_view a, std::string_view b) const;
  bool antonyms(std::string_view a, std::string_view b) const;
  // Best path similarity over the first senses of both words (0 when unrelated or unknown).
  double path_similarity(std::string_view a, std::string_view b) const;

 private:
  // Lemmas of `word` in every part of speech (the word itself first).
  std::vector<std::pair<std::string, knowledge::PartOfSpeech>> lemmas(std::string_view word) const;
  // Whether an antonym pointer leaves one of `from` (in any part of speech) for one of `to`.
  bool antonym_link(const std::vector<std::string>& from, const std::vector<std::string>& to) const;

  std::unique_ptr<knowledge::WordNetGraph> graph_;
  text::WordNetLemmatizer lemmatizer_;
};

}  // namespace assay::aeon
