#include "knowledge/person_classifier.h"

#include <algorithm>
#include <unordered_map>

#include "core/error.h"

namespace assay::knowledge {

PersonOptions default_person_options(const KnowledgeGraph& graph) {
  PersonOptions o;
  if (graph.backend_name() == "conceptnet") {
    o.indicators = {"human", "people", "person", "human_adult", "employee"};
    o.non_human = {"robot",  "machine", "place",  "organization", "body_part", "event",
                   "disease", "animal", "plant",  "object",       "tool",      "building",
                   "food",    "country", "city",  "location",     "company",   "vehicle"};
    o.max_hops = 2;
    o.min_weight = 1.0f;
    o.sense_choice = SenseChoice::kFirst;  // a ConceptNet term has one node
    o.top_n = 1;
  } else {
    o.indicators = {"person.n.01"};
    // Pruning only: WordNet's person subtree does not pass through these, they cut the search.
    o.non_human = {"animal.n.01", "artifact.n.01", "location.n.01", "organization.n.01",
                   "body_part.n.01", "event.n.01", "disease.n.01", "plant.n.02",
                   "abstraction.n.06", "substance.n.01"};
    o.max_hops = 12;
    o.min_weight = 0.0f;
    o.sense_choice = SenseChoice::kAnyTaggedOfTopN;
    o.top_n = 100;
  }
  return o;
}

PersonClassifier::PersonClassifier(const KnowledgeGraph& graph, PersonOptions options)
    : graph_(graph), options_(std::move(options)) {
  if (options_.top_n == 0) throw core::UsageError("PersonOptions.top_n must be at least 1");
  for (const auto& name : options_.indicators) {
    if (const auto n = graph_.find_node(name)) indicators_.insert(*n);
  }
  for (const auto& name : options_.non_human) {
    if (const auto n = graph_.find_node(name)) stops_.insert(*n);
  }
}

bool PersonClassifier::sense_is_person(NodeId sense, std::vector<NodeId>* path) const {
  // Breadth-first search over hypernym edges, remembering parents to rebuild the path.
  std::unordered_map<NodeId, NodeId> parent{{sense, sense}};
  std::vector<NodeId> frontier{sense};
  for (std::size_t hop = 0;; ++hop) {
    std::vector<NodeId> next;
    for (NodeId n : frontier) {
      if (indicators_.count(n)) {
        if (path) {
          path->clear();
          for (NodeId at = n;; at = parent[at]) {
            path->push_back(at);
            if (at == sense) break;
          }
          std::reverse(path->begin(), path->end());
        }
        return true;
      }
      if (stops_.count(n) || hop == options_.max_hops) continue;
      for (const WeightedNode& h : graph_.hypernyms(n)) {
        if (h.weight > options_.min_weight && parent.emplace(h.node, n).second) next.push_back(h.node);
      }
    }
    if (next.empty()) return false;
    frontier = std::move(next);
  }
}

std::vector<NodeId> PersonClassifier::considered_senses(std::string_view noun) const {
  std::vector<NodeId> senses = graph_.noun_senses(noun);
  std::size_t keep = options_.sense_choice == SenseChoice::kFirst ? 1 : options_.top_n;
  if (options_.sense_choice == SenseChoice::kAnyTaggedOfTopN) {
    keep = std::min(keep, std::max<std::size_t>(1, graph_.tagged_noun_sense_count(noun)));
  }
  if (senses.size() > keep) senses.resize(keep);
  return senses;
}

bool PersonClassifier::is_person(std::string_view noun) const {
  const std::vector<NodeId> senses = considered_senses(noun);
  if (senses.empty()) return false;
  std::size_t n_person = 0;
  for (NodeId s : senses) {
    if (sense_is_person(s)) {
      if (options_.sense_choice != SenseChoice::kMajorityOfTopN) return true;
      ++n_person;
    }
  }
  return options_.sense_choice == SenseChoice::kMajorityOfTopN && 2 * n_person > senses.size();
}

}  // namespace assay::knowledge
