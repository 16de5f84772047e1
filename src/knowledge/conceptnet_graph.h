// ConceptNetGraph: the KnowledgeGraph over the English part of a ConceptNet 5 assertions dump
// supplied by the user (the paper's graph). Nodes are English terms (sense tags folded); IsA,
// Antonym, FormOf, DerivedFrom and Synonym edges are kept with their weights; there are no
// glosses and one "sense" per term.
//
// open(dump) reuses "<dump>.assay-cache" when it was built from a dump of the same size and
// modification time, and otherwise streams the dump and writes the cache atomically. A cache
// that fails validation is an error (ParseError with the byte offset), not silently rebuilt.
// Immutable after construction: thread-safe.
#pragma once

#include <memory>
#include <string>

#include "knowledge/conceptnet_cache.h"
#include "knowledge/conceptnet_dump_reader.h"
#include "knowledge/knowledge_graph.h"

namespace assay::knowledge {

class ConceptNetGraph final : public KnowledgeGraph {
 public:
  struct OpenOptions {
    std::string cache_path;  // empty: <dump>.assay-cache
    bool write_cache = true;
  };
  static std::unique_ptr<ConceptNetGraph> open(const std::string& dump_path,
                                               const OpenOptions& options);
  static std::unique_ptr<ConceptNetGraph> open(const std::string& dump_path) {
    return open(dump_path, OpenOptions{});
  }
  // Streams the dump (.csv or .csv.gz); no cache involved.
  static std::unique_ptr<ConceptNetGraph> build(const std::string& dump_path);
  static std::unique_ptr<ConceptNetGraph> load_cache(const std::string& cache_path);
  void write_cache(const std::string& cache_path) const;

  std::string_view backend_name() const override { return "conceptnet"; }
  std::size_t node_count() const override { return data_.n_nodes(); }
  std::size_t edge_count() const { return data_.edges.size(); }
  std::vector<NodeId> noun_senses(std::string_view word) const override;
  std::size_t tagged_noun_sense_count(std::string_view word) const override;
  std::vector<WeightedNode> hypernyms(NodeId node) const override;
  std::vector<WeightedNode> hyponyms(NodeId node) const override;
  std::vector<std::string> node_words(NodeId node) const override;
  std::string node_name(NodeId node) const override;
  std::optional<NodeId> find_node(std::string_view name) const override;
  std::string gloss(NodeId) const override { return {}; }
  // ConceptNet terms have no part of speech: `pos` is not used.
  std::vector<std::string> lexical_links(std::string_view word, PartOfSpeech pos,
                                         LexicalRelation relation) const override;

  // Edges of `relation` leaving (outgoing) or entering `node`.
  std::vector<WeightedNode> out_edges(NodeId node, ConceptNetRelation relation) const;
  std::vector<WeightedNode> in_edges(NodeId node, ConceptNetRelation relation) const;
  const ConceptNetDumpStats& dump_stats() const { return stats_; }

 private:
  explicit ConceptNetGraph(ConceptNetData data) : data_(std::move(data)) {}
  std::string_view term(NodeId node) const;
  std::vector<std::string> linked_words(std::string_view word,
                                        std::initializer_list<ConceptNetRelation> rels) const;

  ConceptNetData data_;
  ConceptNetDumpStats stats_;
};

}  // namespace assay::knowledge
