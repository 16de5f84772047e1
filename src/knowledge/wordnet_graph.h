// WordNetGraph: the KnowledgeGraph over a WordNet 3.0 database (wordnet/database.h: the files
// of the Debian package wordnet-base, read once per process and shared with the lemmatiser and
// AEON). Nodes are synsets of all four parts of speech, numbered as wordnet::SynsetTable
// numbers them; antonyms and related forms answer for every part of speech.
//
// load() throws MissingResourceError naming the package when a file is missing, ParseError
// with file:line:column for a malformed record, and ParseError naming the record's line when
// a pointer targets a synset offset that does not exist. Immutable after load: thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "knowledge/knowledge_graph.h"
#include "wordnet/database.h"

namespace assay::knowledge {

class WordNetGraph final : public KnowledgeGraph {
 public:
  // The graph over the process's database for `dir` (loaded now unless another user has).
  static std::unique_ptr<WordNetGraph> load(const std::string& dir = wordnet::kDefaultDir);
  // The graph over an open database (loads its synsets unless loaded).
  explicit WordNetGraph(std::shared_ptr<const wordnet::Database> database);

  std::string_view backend_name() const override { return "wordnet"; }
  std::size_t node_count() const override { return synsets_.size(); }
  std::vector<NodeId> noun_senses(std::string_view word) const override;
  std::size_t tagged_noun_sense_count(std::string_view word) const override;
  std::vector<WeightedNode> hypernyms(NodeId node) const override;
  std::vector<WeightedNode> hyponyms(NodeId node) const override;
  std::vector<std::string> node_words(NodeId node) const override;
  std::string node_name(NodeId node) const override;
  std::optional<NodeId> find_node(std::string_view name) const override;
  std::string gloss(NodeId node) const override;
  std::vector<std::string> lexical_links(std::string_view word, PartOfSpeech pos,
                                         LexicalRelation relation) const override;

  // Senses of `word` as `pos` (index.<pos> order); exact lemma after normalize_term, no
  // exception list.
  std::vector<NodeId> senses(std::string_view word, PartOfSpeech pos) const;
  // The lexical links that leave `lemma` itself as `pos` — no normalisation and no exception
  // list: `lemma` is matched as index.<pos> writes it. For callers that lemmatise themselves.
  std::vector<std::string> lemma_links(std::string_view lemma, PartOfSpeech pos,
                                       LexicalRelation relation) const;
  PartOfSpeech node_pos(NodeId node) const { return synsets_.at(node).pos; }
  // Lexicographer file number (noun.person is 18).
  std::uint8_t lex_filenum(NodeId node) const { return synsets_.at(node).lex_filenum; }
  const std::shared_ptr<const wordnet::Database>& database() const { return database_; }

  struct Stats {
    std::size_t n_synsets = 0, n_lemmas = 0, n_pointers = 0;
    std::size_t n_exceptions = 0;  // lines of noun.exc
  };
  const Stats& stats() const { return stats_; }

 private:
  // Senses of `key` as `pos`, else of the bases <pos>.exc lists for it (WordNet's first step
  // of morphy: men -> man); `lemmas` receives the lemmas whose senses these are.
  std::vector<NodeId> morph_senses(const std::string& key, PartOfSpeech pos,
                                   std::vector<std::string>* lemmas) const;
  void collect_links(NodeId node, const std::vector<std::string>& lemmas,
                     wordnet::wndb::PointerKind kind, std::vector<std::string>* words) const;
  std::vector<WeightedNode> links(NodeId node, wordnet::wndb::PointerKind kind_a,
                                  wordnet::wndb::PointerKind kind_b) const;

  std::shared_ptr<const wordnet::Database> database_;
  const wordnet::SynsetTable& synsets_;  // before lexicon_: synsets() reads both in parallel
  const wordnet::Lexicon& lexicon_;
  Stats stats_;
};

}  // namespace assay::knowledge
