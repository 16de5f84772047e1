// PersonClassifier: IsPerson(noun) of the MT-NLP perturbator (../shared/spec/fairness.md,
// Algorithm 2 step 2). A noun is a person when one of the senses considered reaches a human
// indicator node by IsA (hypernym) edges within max_hops, following only edges heavier than
// min_weight and never expanding a node of the non-human early-stop set.
//
// Defaults per backend (default_person_options):
//  - ConceptNet: the reference code's k = 2, weight > 1.0, indicators {human, people, person,
//    human_adult, employee}, early stop on robot, machine, place, organization, body_part,
//    event, disease and a few more concrete non-human classes (see the .cc).
//  - WordNet: indicator person.n.01; any sense seen in WordNet's sense-tagged corpus (at least
//    the first), max_hops 12 — both chosen by measurement (docs/knowledge.md, bench/knowledge
//    person-eval: F1 0.976 against 0.973 for the first sense only, which misses "queen").
// The noun must already be lemmatised (singular); the backends add only WordNet's exception
// list. Indicator or stop names the graph does not know are ignored.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "knowledge/knowledge_graph.h"

namespace assay::knowledge {

enum class SenseChoice {
  kFirst,     // only the most frequent sense
  kAnyOfTopN, // any of the top_n most frequent senses
  kMajorityOfTopN,  // more than half of the top_n senses (or of all, if fewer)
  kAnyTaggedOfTopN, // any of the top_n senses seen in the sense-tagged corpus (always the first)
};

struct PersonOptions {
  std::vector<std::string> indicators;  // node names (find_node)
  std::vector<std::string> non_human;   // node names; reached nodes are not expanded
  std::size_t max_hops = 2;
  float min_weight = 0.0f;  // an edge is followed when weight > min_weight
  SenseChoice sense_choice = SenseChoice::kFirst;
  std::size_t top_n = 1;
};

// The options described above for graph.backend_name().
PersonOptions default_person_options(const KnowledgeGraph& graph);

class PersonClassifier {
 public:
  // `graph` must outlive the classifier. Thread-safe (const after construction).
  PersonClassifier(const KnowledgeGraph& graph, PersonOptions options);

  bool is_person(std::string_view noun) const;
  // Whether one node (sense) reaches an indicator; the path (sense first, indicator last) when
  // `path` is given.
  bool sense_is_person(NodeId sense, std::vector<NodeId>* path = nullptr) const;
  // The senses is_person considers, in frequency order.
  std::vector<NodeId> considered_senses(std::string_view noun) const;

  const KnowledgeGraph& graph() const { return graph_; }
  const PersonOptions& options() const { return options_; }

 private:
  const KnowledgeGraph& graph_;
  PersonOptions options_;
  std::unordered_set<NodeId> indicators_;
  std::unordered_set<NodeId> stops_;
};

}  // namespace assay::knowledge
