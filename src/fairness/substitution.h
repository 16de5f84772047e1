// How a substitution is named wherever violations are counted (summary.json's top_flips, the
// fairness report): "old -> new" in lower case, saying what changed. An analogy names the
// replacement ("actors -> actresses"); an insertion (ActiveMutate) names the noun with its new
// adjective ("director -> male director"), never the adjective alone.
#pragma once

#include <string>
#include <string_view>

#include "fairness/perturbation.h"

namespace assay::fairness {

std::string substitution_name(MutationKind kind, std::string_view old_word,
                              std::string_view new_word);

}  // namespace assay::fairness
