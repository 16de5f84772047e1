// WordNetGraph: the KnowledgeGraph over the WordNet 3.0 database files of the Debian package
// wordnet-base (/usr/share/wordnet: data.{noun,verb,adj,adv}, index.*, noun.exc), parsed at
// run time — the files are never copied into the repository. Nodes are synsets of all four
// parts of speech; noun_senses/antonyms/related_forms answer for nouns.
//
// load() throws MissingResourceError naming the package when a file is missing, ParseError
// with file:line:column for a malformed record, and ParseError naming the record's line when
// a pointer targets a synset offset that does not exist. Immutable after load: thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "knowledge/knowledge_graph.h"

namespace assay::knowledge {

inline constexpr const char* kWordNetDefaultDir = "/usr/share/wordnet";

class WordNetGraph final : public KnowledgeGraph {
 public:
  // Reads the database in `dir`.
  static std::unique_ptr<WordNetGraph> load(const std::string& dir = kWordNetDefaultDir);

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
  std::vector<std::string> antonyms(std::string_view word) const override;
  std::vector<std::string> related_forms(std::string_view word) const override;

  // Senses of `word` in any part of speech (index.<pos> order); exact lemma only.
  std::vector<NodeId> senses(std::string_view word, PartOfSpeech pos) const;
  PartOfSpeech node_pos(NodeId node) const { return synsets_.at(node).pos; }
  // Lexicographer file number (noun.person is 18).
  std::uint8_t lex_filenum(NodeId node) const { return synsets_.at(node).lex_filenum; }

  struct Stats {
    std::size_t n_synsets = 0, n_lemmas = 0, n_pointers = 0, n_exceptions = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Synset {
    std::uint32_t offset = 0;
    PartOfSpeech pos = PartOfSpeech::kNoun;
    bool satellite = false;
    std::uint8_t lex_filenum = 0;
    std::uint32_t first_word = 0, n_words = 0;
    std::uint32_t first_pointer = 0, n_pointers = 0;
    std::uint32_t gloss_begin = 0, gloss_size = 0;
  };
  struct Pointer {
    std::uint8_t kind = 0;  // wndb::PointerKind
    std::uint8_t source_word = 0, target_word = 0;
    NodeId target = 0;
  };
  struct Range {
    std::uint32_t begin = 0, size = 0;
    std::uint32_t tagged = 0;  // index entries only: tagsense_cnt
  };
  class Loader;

  WordNetGraph() = default;
  std::string word(std::uint32_t index) const;
  std::vector<NodeId> lexical_targets(std::string_view word, std::uint8_t kind,
                                      std::vector<std::string>* words) const;
  std::vector<WeightedNode> links(NodeId node, std::uint8_t kind_a, std::uint8_t kind_b) const;

  std::vector<Synset> synsets_;
  std::vector<Pointer> pointers_;
  std::vector<Range> word_spans_;  // into text_
  std::string text_;               // words and glosses, concatenated
  std::vector<NodeId> index_nodes_;
  std::array<std::unordered_map<std::string, Range>, 4> index_;  // lemma -> index_nodes_ range
  std::unordered_map<std::string, std::vector<std::string>> noun_exceptions_;
  Stats stats_;
};

}  // namespace assay::knowledge
