// Counterpart source: the curated gender lexicon (gender_lexicon.h, data/lexicon/gender-pairs.tsv),
// asked first for gender. A listed word has its one counterpart; a word it lacks goes on to the
// vectors or the knowledge graph only when it has a gender of its own: a neutral noun (singer,
// doctor) has no counterpart of the other gender (singer -> baritone changes the role), and
// ActiveMutate serves it.
#include "fairness/perturbator_internal.h"

namespace assay::fairness {

Perturbator::SourceAnswer Perturbator::lexicon_counterparts(CounterpartSearch& search) const {
  if (!attribute_.uses_gender_finder || !r_.gender_lexicon) return SourceAnswer::kPass;
  if (const auto* e = r_.gender_lexicon->find(search.lemma)) {
    search.add(e->gender == knowledge::Gender::kMale ? 1 : 0, e->counterpart,
               "lexicon:" + e->category, 1.0);
    return SourceAnswer::kAnswered;
  }
  return primary_gender(search.lemma) == knowledge::Gender::kNone ? SourceAnswer::kAnswered
                                                                  : SourceAnswer::kPass;
}

}  // namespace assay::fairness
