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
// The same without the gender lexicon and the first names: the knowledge graph's (or the
// vectors') counterparts alone, for the tests of those sources.
inline PerturbatorResources& mutable_graph_only_resources() {
  static PerturbatorResources* r = [] {
    ResourceOptions o;
    o.gender_lexicon.clear();
    o.first_names.clear();
    return new PerturbatorResources(PerturbatorResources::load(o));
  }();
  return *r;
}

}  // namespace assay::fairness::testing
