#include "fairness/substitution.h"

#include "text/unicode_props.h"

namespace assay::fairness {

std::string substitution_name(MutationKind kind, std::string_view old_word,
                              std::string_view new_word) {
  const std::string old_lower = text::to_lower(old_word), new_lower = text::to_lower(new_word);
  return old_lower + " -> " +
         (kind == MutationKind::kActive ? new_lower + " " + old_lower : new_lower);
}

}  // namespace assay::fairness
