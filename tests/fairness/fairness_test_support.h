// Shared by the fairness tests: paths, and the default resources (tagger, WordNet, CMU
// trigram) loaded once per test process.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "fairness/neutral_layer.h"
#include "fairness/perturbator.h"
#include "fairness/perturbator_resources.h"
#include "models/model.h"

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

// What the neutral layer answers for `text`, computed step by step in the test (not through
// neutral_class.h): the representative, its first max_k perturbations (those `keep` keeps:
// all when it is empty), the model's answers, the class's mean and class_smooth.
struct ExpectedNeutral {
  std::vector<double> scores;
  std::size_t label = 0;
  std::size_t k = 0;  // perturbations of the representative
};
inline ExpectedNeutral expected_neutral(const Perturbator& perturbator, models::Model& model,
                                        const std::string& text, double epsilon, std::size_t max_k,
                                        const std::function<bool(const Perturbation&)>& keep = {}) {
  const std::string r = perturbator.neutral_form(text);
  std::vector<std::string> around{r};
  const auto set = perturbator.perturb(r);
  for (std::size_t i = 0; i < std::min(max_k, set.perturbations.size()); ++i) {
    if (keep && !keep(set.perturbations[i])) continue;
    around.push_back(set.perturbations[i].text);
  }
  const auto reference = class_reference(model.predict(around));
  const auto f = class_smooth(model.predict({text})[0], reference, epsilon);
  return {f.scores, f.label, around.size() - 1};
}

}  // namespace assay::fairness::testing
