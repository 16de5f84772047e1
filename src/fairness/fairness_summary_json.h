// summary.json of a fairness test (`assay fair test`, assay.fair.test in Python): the counts of
// a FairnessTestSummary, the 20 substitutions that flipped most labels (with the labels they
// flipped toward), the score shifts per group (n, mean, min, p05, median, p95, max), per group
// the direction (violations by the label flipped toward, each label's score change) and the
// severity (violations at a few least score changes), and the inputs by number of
// perturbations (Fig. 4 of `fair report`). The answer cache's counts, when there is one, are
// the caller's. Its "format" is kFairnessSummaryFormat; a file without one is the first
// format (no labels, direction or severity), which `fair report` still reads.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fairness/fairness_test_runner.h"

namespace assay::fairness {

inline constexpr const char* kFairnessSummaryFormat = "assay-fair-test-summary/2";

// The least score changes at which summary.json counts violations besides the run's own.
inline const std::vector<double> kSeverityThresholds{0.0, 0.1, 0.2, 0.3};

// `data` names the inputs (the file as given; "" leaves the field out).
nlohmann::ordered_json fairness_summary_json(const FairnessTestSummary& summary,
                                             const std::string& model_identity,
                                             const std::string& attribute,
                                             const std::string& data = "");

// "0", "0.1", "0.25": how summary.json writes a threshold as a key (the shortest decimal that
// reads back as the same number).
std::string threshold_key(double min_delta);

}  // namespace assay::fairness
