// The gender perturbator against its judged sets (judged_set.h; the judging rule is in
// docs/fairness.md): precision of everything it produces, recall of what a reviewer expects,
// and the share of hand-written sentences that get exactly their correct perturbations. The
// goals are the ones the docs state; each failure names the cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "fairness/perturbator.h"
#include "fairness_test_support.h"
#include "judged_set.h"

namespace assay::fairness {
namespace {

const std::string kJudged = testing::kData + "/gender-judged";

std::string percent(std::size_t a, std::size_t b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu / %zu = %.1f %%", a, b, b ? 100.0 * a / b : 0.0);
  return buf;
}

// The paper's noun-only method, for comparison: the knowledge graph's counterparts without
// the lexicon and the first names, and no co-reference (`--gender-lexicon none --first-names
// none --no-coreference`).
PerturbatorOptions noun_only_options() {
  PerturbatorOptions o;
  o.coreference = false;
  return o;
}

TEST(GenderJudged, HandwrittenSentences) {
  const auto& resources = testing::default_resources();
  ASSERT_TRUE(resources.first_names);
  const auto s = testing::score_handwritten(Perturbator(resources, gender_attribute()),
                                            *resources.first_names, kJudged + "/handwritten.txt");
  ASSERT_GE(s.cases, 100u);
  std::string rules;
  for (const auto& [rule, n] : s.by_rule)
    rules += "\n  " + rule + ": " + percent(n.first, n.second);
  const double precision = s.produced ? static_cast<double>(s.right) / s.produced : 1.0;
  const double full_share = static_cast<double>(s.exact) / s.cases;
  RecordProperty("precision", std::to_string(precision));
  RecordProperty("recall",
                 std::to_string(s.expected ? static_cast<double>(s.found) / s.expected : 1.0));
  RecordProperty("full", std::to_string(full_share));
  std::printf("hand-written: precision %s, recall %s, sentences fully right %s%s\n",
              percent(s.right, s.produced).c_str(), percent(s.found, s.expected).c_str(),
              percent(s.exact, s.cases).c_str(), rules.c_str());
  if (std::getenv("ASSAY_JUDGED_REPORT"))
    std::printf("cases not fully right:%s\n", s.report.c_str());
  EXPECT_GE(precision, 0.95) << "cases not fully right:" << s.report;
  EXPECT_GE(full_share, 0.90) << "cases not fully right:" << s.report;

  const auto n = testing::score_handwritten(
      Perturbator(testing::mutable_graph_only_resources(), gender_attribute(), noun_only_options()),
      *resources.first_names, kJudged + "/handwritten.txt");
  std::printf(
      "hand-written, the paper's noun-only method: precision %s, recall %s, sentences "
      "fully right %s\n",
      percent(n.right, n.produced).c_str(), percent(n.found, n.expected).c_str(),
      percent(n.exact, n.cases).c_str());
  EXPECT_GT(s.right * n.produced, n.right * s.produced) << "no better than the noun-only method";
}

// Perturbations of real text (rt-polarity, SST-2, the IMDB sample), sampled with a seed and
// judged by reading. Precision is counted over every perturbation the perturbator now makes of
// those inputs, an output nobody judged counting as wrong (so a change of the perturbator
// cannot raise it without its new outputs being judged).
TEST(GenderJudged, SampledFromCorpora) {
  if (!std::filesystem::exists(testing::kShared + "/rt-polarity-v1.0/rt-polarity.pos"))
    GTEST_SKIP() << "../shared/data absent";
  const auto judged = testing::read_sampled(kJudged + "/sampled.tsv");
  ASSERT_GE(judged.size(), 300u);
  const testing::SampledSet set(judged);
  const auto& inputs = set.inputs;
  const std::size_t judged_right = set.judged_right;
  const auto s =
      testing::score_sampled(Perturbator(testing::default_resources(), gender_attribute()), set);
  const double precision = s.made ? static_cast<double>(s.right) / s.made : 1.0;
  RecordProperty("precision", std::to_string(precision));
  std::printf(
      "sampled: %zu inputs; precision %s (unjudged %zu counted wrong); right ones "
      "still made %s\n",
      inputs.size(), percent(s.right, s.made).c_str(), s.unjudged,
      percent(s.right, judged_right).c_str());
  // The goal is 95 %, as on the hand-written set; judged under the rule that counts a narrowed
  // general statement as wrong, the set is short of it (docs/fairness.md), and may get no worse.
  constexpr std::size_t kMaxWrong = 45;
  EXPECT_LE(s.made - s.right, kMaxWrong) << s.report;

  const auto n = testing::score_sampled(
      Perturbator(testing::mutable_graph_only_resources(), gender_attribute(), noun_only_options()),
      set);
  std::printf(
      "sampled, the paper's noun-only method: precision %s (unjudged %zu counted "
      "wrong); recall %s of all judged right\n",
      percent(n.right, n.made).c_str(), n.unjudged, percent(n.right, judged_right).c_str());
  if (std::getenv("ASSAY_JUDGED_REPORT"))
    std::printf("defaults:%s\nnoun-only method:%s\n", s.report.c_str(), n.report.c_str());
}

}  // namespace
}  // namespace assay::fairness
