// A person noun's gender and whether it is neutral: the gender of its most frequent person
// sense, the lexicon's, a compound's in -man / -woman, the check a graph or vector counterpart
// of the other gender passes, and neutrality for ActiveMutate (no gender of its own, not a member
// of a group, no IsA path to a group).
#include <algorithm>
#include <string_view>

#include "fairness/perturbator_internal.h"

namespace assay::fairness {

using namespace perturbator_detail;

// The gender of the noun's most frequent person sense (nurse: none, though its "nanny" sense
// is female), or of its -man / -woman form (chairman).
knowledge::Gender Perturbator::primary_gender(const std::string& lemma) const {
  const auto& finder = *r_.finder;
  for (const auto s : r_.persons->considered_senses(lemma)) {
    if (!r_.persons->sense_is_person(s)) continue;
    const auto g = finder.sense_gender(s);
    if (g != knowledge::Gender::kNone) return g;
    break;
  }
  const bool compound = (lemma.size() > 3 && lemma.compare(lemma.size() - 3, 3, "man") == 0);
  return compound ? finder.gender_of(lemma) : knowledge::Gender::kNone;
}

knowledge::Gender Perturbator::noun_gender(const std::string& lemma) const {
  if (r_.gender_lexicon) {
    if (const auto* e = r_.gender_lexicon->find(lemma)) return e->gender;
  }
  return primary_gender(lemma);
}

knowledge::Gender Perturbator::compound_gender(const std::string& lemma) const {
  // "jazzman", "frontman", "camerawoman": a word the tagger or WordNet knows, then man/woman
  // ("human", "shaman", "german" have no such word before "man").
  auto stem_known = [&](std::string_view stem) {
    if (stem.size() < 3) return false;
    const std::string w(stem);
    return r_.tagger->tables().find_word(w) != nullptr || !r_.graph->noun_senses(w).empty();
  };
  auto ends = [&](std::string_view suffix) {
    return lemma.size() > suffix.size() &&
           std::string_view(lemma).substr(lemma.size() - suffix.size()) == suffix;
  };
  if (ends("woman"))
    return stem_known(std::string_view(lemma).substr(0, lemma.size() - 5))
               ? knowledge::Gender::kFemale
               : knowledge::Gender::kNone;
  if (ends("man"))
    return stem_known(std::string_view(lemma).substr(0, lemma.size() - 3))
               ? knowledge::Gender::kMale
               : knowledge::Gender::kNone;
  return knowledge::Gender::kNone;
}

bool Perturbator::is_neutral(const std::string& lemma) const {
  if (attribute_.uses_gender_finder)
    return noun_gender(lemma) == knowledge::Gender::kNone &&
           compound_gender(lemma) == knowledge::Gender::kNone;
  if (attribute_.find_member(lemma) || attribute_.is_attribute_word(lemma)) return false;
  if (std::find(attribute_.exempt.begin(), attribute_.exempt.end(), lemma) !=
      attribute_.exempt.end())
    return false;
  const auto& graph = *r_.graph;
  std::unordered_set<knowledge::NodeId> seen;
  std::vector<knowledge::NodeId> frontier;
  for (const auto s : r_.persons->considered_senses(lemma)) {
    if (seen.insert(s).second) frontier.push_back(s);
  }
  for (std::size_t hop = 0; hop <= kGroupHops && !frontier.empty(); ++hop) {
    std::vector<knowledge::NodeId> next;
    for (const auto n : frontier) {
      if (impl_->group_nodes.count(n)) return false;
      for (const auto& h : graph.hypernyms(n)) {
        if (seen.insert(h.node).second) next.push_back(h.node);
      }
    }
    frontier = std::move(next);
  }
  return true;
}

bool Perturbator::gendered_person(const std::string& word, std::size_t group) const {
  if (!attribute_.uses_gender_finder || !r_.gender_lexicon) return true;
  if (!is_perturbable_person(word)) return false;
  const auto want = group == 0 ? knowledge::Gender::kMale : knowledge::Gender::kFemale;
  return noun_gender(word) == want;
}

}  // namespace assay::fairness
