#include "knowledge/conceptnet_graph.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "core/error.h"

namespace assay::knowledge {
namespace {

struct SourceStamp {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
};

SourceStamp stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw core::IoError(core::SourceLocation(path), "cannot open ConceptNet dump");
  }
  return {static_cast<std::uint64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace

std::unique_ptr<ConceptNetGraph> ConceptNetGraph::build(const std::string& dump_path) {
  const SourceStamp stamp = stamp_of(dump_path);
  // Intern terms, keep the heaviest of duplicate (relation, start, end) assertions.
  std::unordered_map<std::string, std::uint32_t> ids;
  std::vector<std::string> terms;
  auto intern = [&](std::string_view t) {
    auto [it, added] = ids.emplace(std::string(t), static_cast<std::uint32_t>(terms.size()));
    if (added) terms.emplace_back(t);
    return it->second;
  };
  std::vector<ConceptNetEdge> raw;
  const ConceptNetDumpStats stats =
      read_conceptnet_dump(dump_path, [&](const ConceptNetAssertion& a) {
        const std::uint32_t s = intern(normalize_term(a.start)), t = intern(normalize_term(a.end));
        if (s != t) raw.push_back({s, t, a.weight, static_cast<std::uint32_t>(a.relation)});
      });
  // Renumber nodes in sorted term order (lookup is a binary search, no hash table to rebuild).
  std::vector<std::uint32_t> order(terms.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return terms[a] < terms[b]; });
  std::vector<std::uint32_t> new_id(terms.size());
  ConceptNetTables d;
  d.string_offsets.reserve(terms.size() + 1);
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    new_id[order[i]] = i;
    d.strings += terms[order[i]];
    d.string_offsets.push_back(static_cast<std::uint32_t>(d.strings.size()));
  }
  for (auto& e : raw) {
    e.source = new_id[e.source];
    e.target = new_id[e.target];
  }
  std::sort(raw.begin(), raw.end(), [](const ConceptNetEdge& a, const ConceptNetEdge& b) {
    return std::tie(a.relation, a.source, a.target, b.weight) <
           std::tie(b.relation, b.source, b.target, a.weight);
  });
  for (const auto& e : raw) {  // heaviest first within a duplicate run
    if (!d.edges.empty() && d.edges.back().relation == e.relation &&
        d.edges.back().source == e.source && d.edges.back().target == e.target) {
      continue;
    }
    d.edges.push_back(e);
  }
  d.by_target = d.edges;
  std::sort(
      d.by_target.begin(), d.by_target.end(), [](const ConceptNetEdge& x, const ConceptNetEdge& y) {
        return std::tie(x.relation, x.target, x.source) < std::tie(y.relation, y.target, y.source);
      });
  std::unique_ptr<ConceptNetGraph> g(
      new ConceptNetGraph(ConceptNetData::from_tables(std::move(d), stamp.size, stamp.mtime_ns)));
  g->stats_ = stats;
  return g;
}

std::unique_ptr<ConceptNetGraph> ConceptNetGraph::load_cache(const std::string& cache_path) {
  return std::unique_ptr<ConceptNetGraph>(new ConceptNetGraph(read_conceptnet_cache(cache_path)));
}

void ConceptNetGraph::write_cache(const std::string& cache_path) const {
  write_conceptnet_cache(cache_path, data_);
}

std::unique_ptr<ConceptNetGraph> ConceptNetGraph::open(const std::string& dump_path,
                                                       const OpenOptions& options) {
  const std::string cache =
      options.cache_path.empty() ? dump_path + ".assay-cache" : options.cache_path;
  const SourceStamp stamp = stamp_of(dump_path);
  if (std::filesystem::exists(cache)) {
    auto g = load_cache(cache);
    if (g->data_.source_size == stamp.size && g->data_.source_mtime == stamp.mtime_ns) return g;
  }
  auto g = build(dump_path);
  if (options.write_cache) g->write_cache(cache);
  return g;
}

std::string_view ConceptNetGraph::term(NodeId node) const {
  if (node >= data_.n_nodes()) throw std::out_of_range("ConceptNetGraph: node id out of range");
  const std::uint32_t a = data_.string_offsets[node], b = data_.string_offsets[node + 1];
  return data_.strings.substr(a, b - a);
}

std::optional<NodeId> ConceptNetGraph::find_node(std::string_view name) const {
  const std::string key = normalize_term(name);
  std::uint32_t lo = 0, hi = data_.n_nodes();
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (term(mid) < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < data_.n_nodes() && term(lo) == key) return lo;
  return std::nullopt;
}

std::vector<NodeId> ConceptNetGraph::noun_senses(std::string_view word) const {
  if (const auto n = find_node(word)) return {*n};
  return {};
}

std::size_t ConceptNetGraph::tagged_noun_sense_count(std::string_view word) const {
  return find_node(word) ? 1 : 0;
}

std::vector<WeightedNode> ConceptNetGraph::out_edges(NodeId node,
                                                     ConceptNetRelation relation) const {
  const ConceptNetEdge key{node, 0, 0.0f, static_cast<std::uint32_t>(relation)};
  auto it =
      std::lower_bound(data_.edges.begin(), data_.edges.end(), key,
                       [](const ConceptNetEdge& a, const ConceptNetEdge& b) {
                         return std::tie(a.relation, a.source) < std::tie(b.relation, b.source);
                       });
  std::vector<WeightedNode> out;
  for (; it != data_.edges.end() && it->relation == key.relation && it->source == node; ++it) {
    out.push_back({it->target, it->weight});
  }
  return out;
}

std::vector<WeightedNode> ConceptNetGraph::in_edges(NodeId node,
                                                    ConceptNetRelation relation) const {
  const auto rel = static_cast<std::uint32_t>(relation);
  auto it = std::lower_bound(data_.by_target.begin(), data_.by_target.end(), 0u,
                             [&](const ConceptNetEdge& x, std::uint32_t) {
                               return std::tie(x.relation, x.target) < std::tie(rel, node);
                             });
  std::vector<WeightedNode> out;
  for (; it != data_.by_target.end(); ++it) {
    const auto& x = *it;
    if (x.relation != rel || x.target != node) break;
    out.push_back({x.source, x.weight});
  }
  return out;
}

std::vector<WeightedNode> ConceptNetGraph::hypernyms(NodeId node) const {
  return out_edges(node, ConceptNetRelation::kIsA);
}
std::vector<WeightedNode> ConceptNetGraph::hyponyms(NodeId node) const {
  return in_edges(node, ConceptNetRelation::kIsA);
}

std::vector<std::string> ConceptNetGraph::node_words(NodeId node) const {
  return {std::string(term(node))};
}
std::string ConceptNetGraph::node_name(NodeId node) const {
  return std::string(term(node));
}

std::vector<std::string> ConceptNetGraph::linked_words(
    std::string_view word, std::initializer_list<ConceptNetRelation> rels) const {
  std::vector<std::string> out;
  const auto n = find_node(word);
  if (!n) return out;
  for (const ConceptNetRelation r : rels) {
    for (const auto& list : {out_edges(*n, r), in_edges(*n, r)}) {
      for (const auto& e : list) {
        std::string w(term(e.node));
        if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
      }
    }
  }
  return out;
}

std::vector<std::string> ConceptNetGraph::lexical_links(std::string_view word, PartOfSpeech,
                                                        LexicalRelation relation) const {
  switch (relation) {
    case LexicalRelation::kAntonym:
      return linked_words(word, {ConceptNetRelation::kAntonym});
    case LexicalRelation::kRelatedForm:
      return linked_words(word, {ConceptNetRelation::kFormOf, ConceptNetRelation::kDerivedFrom});
  }
  return {};
}

}  // namespace assay::knowledge
