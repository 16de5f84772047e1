#include "knowledge/gender_counterpart_finder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "knowledge/knowledge_evaluation.h"
#include "knowledge/wordnet_graph.h"
#include "knowledge_test_paths.h"
#include "support/shared_data.h"

namespace assay::knowledge {
namespace {

using testing::kMiniWordNet;
using testing::kShared;

std::string top(const GenderCounterpartFinder& f, const std::string& w) {
  const auto c = f.counterparts(w);
  return c.empty() ? "(none)" : c.front().word + "/" + std::string(to_string(c.front().evidence));
}

TEST(GenderCounterpartFinder, MiniDatabaseEvidenceKinds) {
  const auto g = WordNetGraph::load(kMiniWordNet);
  const PersonClassifier pc(*g, default_person_options(*g));
  const GenderCounterpartFinder f(*g, pc);
  EXPECT_EQ(f.gender_of("woman"), Gender::kFemale);  // via female.n.02
  EXPECT_EQ(f.gender_of("king"), Gender::kMale);     // gloss "a male sovereign"
  EXPECT_EQ(f.gender_of("queen"), Gender::kFemale);  // the person sense, not the insect
  EXPECT_EQ(f.gender_of("actor"), Gender::kNone);
  EXPECT_EQ(f.gender_of("actress"), Gender::kFemale);
  EXPECT_EQ(top(f, "man"), "woman/antonym");
  EXPECT_EQ(top(f, "queen"), "king/antonym");
  EXPECT_EQ(top(f, "actress"), "actor/gloss");
  EXPECT_EQ(top(f, "actor"), "actress/hyponym_gloss");
  EXPECT_EQ(top(f, "performer"), "(none)");
  EXPECT_EQ(top(f, "animal"), "(none)");
}

TEST(GenderCounterpartFinder, RealWordNetFigures) {
  ASSAY_REQUIRE_FILE(kShared + "/mt-nlp-word-pairs/word_pairs.txt");
  ASSAY_REQUIRE_FILE(kShared + "/debiaswe-gender-lists/definitional_pairs.json");
  const auto g = WordNetGraph::load();
  const PersonClassifier pc(*g, default_person_options(*g));
  const GenderCounterpartFinder f(*g, pc);
  EXPECT_EQ(top(f, "waiter"), "waitress/hyponym_gloss");
  EXPECT_EQ(top(f, "policewoman"), "policeman/morphology");
  EXPECT_EQ(top(f, "nephew"), "niece/antonym");
  EXPECT_EQ(f.gender_of("chairwoman"), Gender::kFemale);
  // Floors under the measured figures (docs/knowledge.md): the first antonym alone reaches R 0.56
  // on the MT-NLP pairs and fail.
  const auto mt =
      evaluate_counterparts(f, read_tab_pairs(kShared + "/mt-nlp-word-pairs/word_pairs.txt"));
  EXPECT_EQ(mt.n_queries, 32u);
  EXPECT_GE(mt.precision, 0.90);
  EXPECT_GE(mt.recall, 0.90);
  EXPECT_EQ(mt.any_recall, 1.0);
  const auto def =
      noun_pairs(read_json_pairs(kShared + "/debiaswe-gender-lists/definitional_pairs.json", true),
                 testing::kPersonLabels);
  const auto d = evaluate_counterparts(f, def);
  EXPECT_EQ(d.n_queries, 12u);  // pronoun and first-name pairs are left out
  EXPECT_GE(d.recall, 0.75);
}

}  // namespace
}  // namespace assay::knowledge
