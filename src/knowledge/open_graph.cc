#include "knowledge/open_graph.h"

#include "core/error.h"
#include "knowledge/conceptnet_graph.h"

namespace assay::knowledge {

std::unique_ptr<KnowledgeGraph> open_graph(const std::string& spec, const GraphOptions& options) {
  if (spec == "wordnet") return WordNetGraph::load(options.wordnet_dir);
  const std::string prefix = "conceptnet:";
  if (spec.rfind(prefix, 0) == 0 && spec.size() > prefix.size()) {
    ConceptNetGraph::OpenOptions open;
    open.cache_path = options.conceptnet_cache;
    return ConceptNetGraph::open(spec.substr(prefix.size()), open);
  }
  throw core::UsageError(
      "knowledge graph: expected 'wordnet' or 'conceptnet:FILE' (an assertions .csv or .csv.gz), "
      "got '" +
      spec.substr(0, 200) + "'");
}

}  // namespace assay::knowledge
