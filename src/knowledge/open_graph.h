// open_graph: the one way to open a knowledge graph from a user's spec, for every command and
// engine that takes `--kg SPEC`:
//   wordnet          WordNet 3.0 from `wordnet_dir` (default: Debian's wordnet-base)
//   conceptnet:FILE  a ConceptNet 5 assertions dump (.csv or .csv.gz), compacted on first use
//                    into a binary cache (`conceptnet_cache`, default FILE.assay-cache)
#pragma once

#include <memory>
#include <string>

#include "knowledge/knowledge_graph.h"
#include "knowledge/wordnet_graph.h"

namespace assay::knowledge {

struct GraphOptions {
  std::string wordnet_dir = wordnet::kDefaultDir;
  std::string conceptnet_cache;  // empty: next to the dump
};

// Throws core::UsageError for a spec that is neither form (the message lists both), and the
// backends' IoError / ParseError for missing or malformed files.
std::unique_ptr<KnowledgeGraph> open_graph(const std::string& spec,
                                           const GraphOptions& options = {});

}  // namespace assay::knowledge
