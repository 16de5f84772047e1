// WordNetRelations: the lexical knowledge the offline SemEval uses — synonymy (two words share
// a synset in any part of speech, after WordNet lemmatisation), direct antonymy in all four
// parts of speech (WordNet's lexical '!' pointers; KnowledgeGraph::antonyms answers for
// nouns only, so data.{noun,verb,adj,adv} are scanned here once for their '!' pointers), and a
// path similarity 1 / (1 + shortest hypernym path) between the senses of two nouns or verbs.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "knowledge/wordnet_graph.h"
#include "text/wordnet_lemmatizer.h"

namespace assay::aeon {

class WordNetRelations {
 public:
  // Reads the WordNet database in `dir` (Debian wordnet-base); the loaders' errors propagate.
  explicit WordNetRelations(const std::string& dir = knowledge::kWordNetDefaultDir);

  bool synonyms(std::string_view a, std::string_view b) const;
  bool antonyms(std::string_view a, std::string_view b) const;
  // Best path similarity over the first senses of both words (0 when unrelated or unknown).
  double path_similarity(std::string_view a, std::string_view b) const;

 private:
  // Lemmas of `word` in every part of speech (the word itself first).
  std::vector<std::pair<std::string, knowledge::PartOfSpeech>> lemmas(std::string_view word) const;
  void load_antonyms(const std::string& path);

  std::unique_ptr<knowledge::WordNetGraph> graph_;
  text::WordNetLemmatizer lemmatizer_;
  std::unordered_set<std::string> antonym_pairs_;  // "a\tb", both orders
};

}  // namespace assay::aeon
