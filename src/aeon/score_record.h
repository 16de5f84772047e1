// One scored test case as a record: the JSON line `assay aeon score` writes and the dict
// assay.aeon.score returns (original, generated, SemEval, SynEval, SynEval_original,
// SynEval_relative — null when not a number — patches, semeval_backend, syneval_backend).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"

namespace assay::aeon {

nlohmann::ordered_json score_record(const TestCase& test_case, const TestCaseScore& score,
                                    const std::string& semeval_backend,
                                    const std::string& syneval_backend);

}  // namespace assay::aeon
