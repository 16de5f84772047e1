// Counterpart source: an attribute file's aligned member nouns (sensitive_attribute.h): a
// member of one group has the nouns of its row in every other group (priest <-> imam <-> rabbi).
#include "fairness/perturbator_internal.h"

namespace assay::fairness {

Perturbator::SourceAnswer Perturbator::member_counterparts(CounterpartSearch& search) const {
  if (const auto hit = attribute_.find_member(search.lemma)) {
    for (std::size_t g = 0; g < attribute_.groups.size(); ++g) {
      const auto& w = attribute_.members[hit->row][g];
      if (g != hit->group && !w.empty()) search.add(g, w, "member", 1.0);
    }
  }
  return SourceAnswer::kAnswered;
}

}  // namespace assay::fairness
