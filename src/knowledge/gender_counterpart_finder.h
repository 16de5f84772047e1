// GenderCounterpartFinder: the gendered counterpart of a person noun (actor -> actress,
// policewoman -> policeman, nephew -> niece), used by the perturbator's KG validation and by
// ActiveMutate's "not itself a gendered form" test. Evidence, strongest first:
//  1. antonym links between nouns of opposite gender (king/queen, uncle/aunt);
//  2. glosses "a female X" / "a woman X" / "a male X" / "a man X" (actress: "a female actor"),
//     read in both directions: from the gendered word to X, and from X to its hyponyms with
//     such a gloss;
//  3. hyponym structure: siblings and the hyponyms of a hypernym's counterpart whose gloss is
//     this sense's gloss with the gender words swapped (prince/princess, dad/mum);
//  4. -ess, -woman and -man forms the graph knows as persons (waiter/waitress).
// Genders come from IsA reachability to the backend's male/female anchors (WordNet:
// male.n.02/female.n.02; ConceptNet: male, man, boy / female, woman, girl) and, for WordNet,
// from the first gender word of a sense's gloss.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "knowledge/knowledge_graph.h"
#include "knowledge/person_classifier.h"

namespace assay::knowledge {

enum class Gender { kNone, kMale, kFemale };
std::string_view to_string(Gender g);

enum class CounterpartEvidence { kAntonym, kGloss, kHyponymGloss, kGlossSwap, kMorphology };
std::string_view to_string(CounterpartEvidence e);

struct Counterpart {
  std::string word;
  Gender gender = Gender::kNone;
  CounterpartEvidence evidence = CounterpartEvidence::kAntonym;
  double score = 0.0;  // higher is stronger; ranks the list
};

class GenderCounterpartFinder {
 public:
  // Both must outlive the finder. Person senses are those `persons.sense_is_person` accepts,
  // among all senses of a word. Thread-safe.
  GenderCounterpartFinder(const KnowledgeGraph& graph, const PersonClassifier& persons);

  // Gender of the first person sense of `noun` that has one; kNone when none does.
  Gender gender_of(std::string_view noun) const;
  Gender sense_gender(NodeId sense) const;
  // Counterparts, best first, without duplicates; empty when none is found.
  std::vector<Counterpart> counterparts(std::string_view noun) const;

 private:
  void add(std::vector<Counterpart>& out, std::string word, Gender gender,
           CounterpartEvidence evidence, double score) const;
  std::vector<NodeId> person_senses(std::string_view noun) const;
  void from_glosses(std::string_view noun, NodeId sense, Gender gender,
                    std::vector<Counterpart>& out) const;
  void from_gloss_swap(std::string_view noun, NodeId sense, Gender gender,
                       std::vector<Counterpart>& out) const;
  void from_morphology(std::string_view noun, Gender gender, std::vector<Counterpart>& out) const;

  const KnowledgeGraph& graph_;
  const PersonClassifier& persons_;
  std::vector<NodeId> male_anchors_, female_anchors_;
  bool use_glosses_ = false;
};

}  // namespace assay::knowledge
