// Shared by the fairness tests: paths, and the default resources (tagger, WordNet, CMU
// trigram) loaded once per test process.
#pragma once

#include <string>

#include "fairness/perturbator_resources.h"

namespace assay::fairness::testing {

inline const std::string kData = std::string(ASSAY_TEST_DATA_DIR) + "/fairness";
inline const std::string kShared = ASSAY_SHARED_DATA_DIR;
inline const std::string kAttributes = std::string(ASSAY_TEST_DATA_DIR) + "/../../data/attributes";

inline PerturbatorResources& mutable_resources() {
  static PerturbatorResources* r = new PerturbatorResources(PerturbatorResources::load());
  return *r;
}
inline const PerturbatorResources& default_resources() {
  return mutable_resources();
}

}  // namespace assay::fairness::testing
