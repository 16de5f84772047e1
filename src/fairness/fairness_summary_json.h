// summary.json of a fairness test (`assay fair test`, assay.fair.test in Python): the counts of
// a FairnessTestSummary, the 20 substitutions that flipped most labels, the score shifts per
// group (n, mean, min, p05, median, p95, max) and the inputs by number of perturbations
// (Fig. 4 of `fair report`). The answer cache's counts, when there is one, are the caller's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "fairness/fairness_test_runner.h"

namespace assay::fairness {

nlohmann::ordered_json fairness_summary_json(const FairnessTestSummary& summary,
                                             const std::string& model_identity,
                                             const std::string& attribute);

}  // namespace assay::fairness
