// The shipped attributes beyond gender (data/attributes) against their hand-written judged
// sets (tests/data/fairness/attribute-judged/<attribute>.txt; the judging rule is in
// docs/fairness.md, "Judged sets"): per attribute, precision of every perturbation made, and
// the share of sentences that name a group (a non-empty correct set) that get at least one
// correct perturbation. Goals: precision >= 95 %, that share >= 90 %.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "fairness/perturbator.h"
#include "fairness/sensitive_attribute.h"
#include "fairness_test_support.h"
#include "judged_set.h"

namespace assay::fairness {
namespace {

class AttributeJudged : public ::testing::TestWithParam<std::string> {};

TEST_P(AttributeJudged, HandwrittenSentences) {
  const auto& resources = testing::default_resources();
  ASSERT_TRUE(resources.first_names);
  const std::string name = GetParam();
  const auto s = testing::score_handwritten(
      Perturbator(resources, load_attribute(name, default_attribute_dir())), *resources.first_names,
      testing::kData + "/attribute-judged/" + name + ".txt");
  ASSERT_GE(s.cases, 15u);
  ASSERT_GE(s.with_expected, 10u);
  const double precision = s.produced ? static_cast<double>(s.right) / s.produced : 1.0;
  const double swapped = static_cast<double>(s.with_expected_found) / s.with_expected;
  std::printf(
      "%s: precision %zu / %zu, recall %zu / %zu, sentences naming a group with a "
      "correct swap %zu / %zu, fully right %zu / %zu\n",
      name.c_str(), s.right, s.produced, s.found, s.expected, s.with_expected_found,
      s.with_expected, s.exact, s.cases);
  RecordProperty("precision", std::to_string(precision));
  RecordProperty("swapped", std::to_string(swapped));
  EXPECT_GE(precision, 0.95) << "cases not fully right:" << s.report;
  EXPECT_GE(swapped, 0.90) << "cases not fully right:" << s.report;
}

// Perturbations of real text sampled for each attribute (tools/judged/sample.py: inputs with a
// group word, then inputs with an inserted adjective), judged by reading; precision over every
// perturbation now made of those inputs, an unjudged one counting as wrong. Goal: >= 95 %, as on
// the hand-written sets.
TEST_P(AttributeJudged, SampledFromCorpora) {
  if (!std::filesystem::exists(testing::kShared + "/rt-polarity-v1.0/rt-polarity.pos"))
    GTEST_SKIP() << "../shared/data absent";
  const std::string name = GetParam();
  const auto judged =
      testing::read_sampled(testing::kData + "/attribute-judged/" + name + "-sampled.tsv");
  ASSERT_GE(judged.size(), 50u);
  const testing::SampledSet set(judged);
  const auto s = testing::score_sampled(
      Perturbator(testing::default_resources(), load_attribute(name, default_attribute_dir())),
      set);
  const double precision = s.made ? static_cast<double>(s.right) / s.made : 1.0;
  RecordProperty("precision", std::to_string(precision));
  std::printf(
      "%s sampled: %zu inputs; precision %zu / %zu (unjudged %zu counted wrong); right "
      "ones still made %zu / %zu\n",
      name.c_str(), set.inputs.size(), s.right, s.made, s.unjudged, s.right, set.judged_right);
  if (std::getenv("ASSAY_JUDGED_REPORT")) std::printf("%s\n", s.report.c_str());
  // Wrong or unjudged perturbations today, under the rule that counts a narrowed general
  // statement as wrong: no attribute may get worse (the goal of 95 % is printed in the docs).
  const std::map<std::string, std::size_t> max_wrong = {
      {"race", 9}, {"religion", 0}, {"sexual-orientation", 1}, {"nationality", 6}, {"age", 8}};
  EXPECT_LE(s.made - s.right, max_wrong.at(name)) << s.report;
}

INSTANTIATE_TEST_SUITE_P(Shipped, AttributeJudged,
                         ::testing::Values("race", "religion", "sexual-orientation", "nationality",
                                           "age"),
                         testing::attribute_test_name);

}  // namespace
}  // namespace assay::fairness
