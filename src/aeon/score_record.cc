#include "aeon/score_record.h"

#include <cmath>

namespace assay::aeon {
namespace {

nlohmann::ordered_json number_or_null(double v) {
  return std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
}

}  // namespace

nlohmann::ordered_json score_record(const TestCase& test_case, const TestCaseScore& score,
                                    const std::string& semeval_backend,
                                    const std::string& syneval_backend) {
  nlohmann::ordered_json j;
  j["original"] = test_case.original;
  j["generated"] = test_case.generated;
  j["SemEval"] = number_or_null(score.semeval);
  j["SynEval"] = number_or_null(score.syneval);
  j["SynEval_original"] = number_or_null(score.syneval_original);
  j["SynEval_relative"] = number_or_null(score.syneval_relative());
  j["patches"] = score.n_patches;
  j["semeval_backend"] = semeval_backend;
  j["syneval_backend"] = syneval_backend;
  return j;
}

}  // namespace assay::aeon
