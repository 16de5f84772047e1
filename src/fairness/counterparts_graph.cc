// Counterpart source: the knowledge graph's gender counterparts
// (knowledge::GenderCounterpartFinder: antonyms, glosses, morphology), checked against the glosses
// and the noun's most frequent sense, and where the noun has a gender but no counterpart of the
// other, the reverse evidence: its only gendered hyponym, or a sibling whose own counterparts name
// the noun.
#include <algorithm>
#include <optional>
#include <set>

#include "fairness/perturbator_internal.h"

namespace assay::fairness {

using namespace perturbator_detail;

namespace {

knowledge::Gender other_gender(knowledge::Gender g) {
  return g == knowledge::Gender::kMale     ? knowledge::Gender::kFemale
         : g == knowledge::Gender::kFemale ? knowledge::Gender::kMale
                                           : knowledge::Gender::kNone;
}

bool weak_gloss_swap(const knowledge::Counterpart& c) {
  return c.evidence == knowledge::CounterpartEvidence::kGlossSwap && c.score < kMinGlossSwap;
}

// The first word of each direct hyponym of gender `want` of the lemma's person senses
// (emperor: empress, "a woman emperor or the wife of an emperor").
std::vector<std::string> gendered_hyponyms(const PerturbatorResources& r, const std::string& lemma,
                                           knowledge::Gender want) {
  std::vector<std::string> found;
  for (const auto s : r.persons->considered_senses(lemma)) {
    if (!r.persons->sense_is_person(s)) continue;
    for (const auto& h : r.graph->hyponyms(s)) {
      if (r.finder->sense_gender(h.node) != want) continue;
      const auto words = r.graph->node_words(h.node);
      if (!words.empty()) found.push_back(knowledge::normalize_term(words.front()));
    }
  }
  return found;
}

// The siblings of gender `want` (the other hyponyms of a hypernym of the lemma's person senses)
// whose own counterparts name the lemma: `take(sibling, its counterpart)` for each such
// counterpart of a sibling word until it accepts one.
template <class Take>
void reverse_counterparts(const PerturbatorResources& r, const std::string& lemma,
                          knowledge::Gender want, Take take) {
  std::set<std::string> tried;
  for (const auto s : r.persons->considered_senses(lemma)) {
    if (!r.persons->sense_is_person(s)) continue;
    for (const auto& h : r.graph->hypernyms(s)) {
      for (const auto& sib : r.graph->hyponyms(h.node)) {
        if (sib.node == s || r.finder->sense_gender(sib.node) != want) continue;
        for (const auto& w : r.graph->node_words(sib.node)) {
          const std::string word = knowledge::normalize_term(w);
          if (word != w || !tried.insert(word).second) continue;
          for (const auto& back : r.finder->counterparts(word)) {
            if (weak_gloss_swap(back)) continue;
            if (back.word == lemma && take(word, back)) break;
          }
        }
      }
    }
  }
}

}  // namespace

// A gloss-derived counterpart must be defined through the noun itself or define it: "actress:
// a female actor", "waitress: a woman waiter" — not "manageress: a woman manager" for
// director, whose synset merely contains "manager". Backends without glosses pass.
bool Perturbator::glosses_link(const std::string& lemma, const std::string& counterpart) const {
  const auto& graph = *r_.graph;
  if (graph.backend_name() != "wordnet") return true;
  const std::string a = knowledge::normalize_term(lemma),
                    b = knowledge::normalize_term(counterpart);
  std::string spaced_a = a, spaced_b = b;
  std::replace(spaced_a.begin(), spaced_a.end(), '_', ' ');
  std::replace(spaced_b.begin(), spaced_b.end(), '_', ' ');
  for (const auto s : graph.noun_senses(b)) {
    if (mentions(graph.gloss(s), spaced_a)) return true;
  }
  for (const auto s : graph.noun_senses(a)) {
    if (mentions(graph.gloss(s), spaced_b)) return true;
  }
  // Or the two are defined alike but for the gender word: "a female grandchild" and "a male
  // grandchild" (granddaughter / grandson).
  std::set<std::vector<std::string>> defined;
  for (const auto s : graph.noun_senses(a)) defined.insert(ungendered_clause(graph.gloss(s)));
  for (const auto s : graph.noun_senses(b)) {
    const auto clause = ungendered_clause(graph.gloss(s));
    if (clause.size() >= 2 && defined.count(clause)) return true;
  }
  return false;
}

Perturbator::SourceAnswer Perturbator::graph_counterparts(CounterpartSearch& search) const {
  if (!attribute_.uses_gender_finder) return SourceAnswer::kPass;
  const std::string& lemma = search.lemma;
  const auto& finder = *r_.finder;
  const auto own = finder.gender_of(lemma);
  const auto primary = primary_gender(lemma);
  // The group a counterpart goes to: its own gender, else the noun's other; none when that is
  // the noun's own.
  auto target_group = [&](const knowledge::Counterpart& c) -> std::optional<std::size_t> {
    const auto target = c.gender != knowledge::Gender::kNone ? c.gender : other_gender(own);
    if (target == knowledge::Gender::kNone || target == own) return std::nullopt;
    return target == knowledge::Gender::kMale ? 0 : 1;
  };
  for (const auto& c : finder.counterparts(lemma)) {
    const auto g = target_group(c);
    const std::string word = underscores_to_spaces(c.word);
    if (weak_gloss_swap(c)) {
      if (g) search.drop(*g, word, "weak gloss match (beauty -> old man)");
      continue;
    }
    if ((c.evidence == knowledge::CounterpartEvidence::kGloss ||
         c.evidence == knowledge::CounterpartEvidence::kHyponymGloss) &&
        !glosses_link(lemma, c.word)) {
      if (g)
        search.drop(*g, word, "the gloss names a synonym, not the noun (director -> manageress)");
      continue;
    }
    if (primary == knowledge::Gender::kNone &&
        c.evidence == knowledge::CounterpartEvidence::kGlossSwap) {
      if (g) {
        search.drop(*g, word,
                    "from a gendered secondary sense; the most frequent sense has no gender");
      }
      continue;
    }
    if (!g) continue;
    if (!gendered_person(word, *g)) {
      search.drop(*g, word, "not a person noun of the other gender");
      continue;
    }
    search.add(*g, word, std::string(knowledge::to_string(c.evidence)), c.score);
  }
  // Reverse evidence, for a noun with a gender and no counterpart of the other yet: its only
  // gendered hyponym, else a sibling whose own counterparts name it (emperor has none, but
  // empress -> emperor).
  if (own == knowledge::Gender::kNone) return SourceAnswer::kAnswered;
  const std::size_t g = own == knowledge::Gender::kMale ? 1 : 0;
  const auto want = other_gender(own);
  if (search.found[g].empty()) {
    const auto found = gendered_hyponyms(r_, lemma, want);
    if (found.size() == 1 && gendered_person(underscores_to_spaces(found[0]), g))
      search.add(g, underscores_to_spaces(found[0]), "gendered_hyponym", 0.6);
  }
  if (search.found[g].empty()) {
    reverse_counterparts(
        r_, lemma, want, [&](const std::string& word, const knowledge::Counterpart& back) {
          const std::string spaced = underscores_to_spaces(word);
          if (!gendered_person(spaced, g)) return false;
          search.add(g, spaced, "reverse_" + std::string(knowledge::to_string(back.evidence)),
                     back.score - 0.1);
          return true;
        });
  }
  return SourceAnswer::kAnswered;
}

}  // namespace assay::fairness
