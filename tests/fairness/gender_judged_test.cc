// The gender perturbator against its judged sets (judged_set.h; the judging rule is in
// docs/fairness.md): precision of everything it produces, recall of what a reviewer expects,
// and the share of hand-written sentences that get exactly their correct perturbations. The
// goals are the ones the docs state; each failure names the cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
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

TEST(GenderJudged, HandwrittenSentences) {
  const auto& resources = testing::default_resources();
  ASSERT_TRUE(resources.first_names);
  const Perturbator p(resources, gender_attribute());
  const auto cases = testing::read_handwritten(kJudged + "/handwritten.txt");
  ASSERT_GE(cases.size(), 100u);
  std::size_t produced = 0, right = 0, expected = 0, found = 0, exact = 0;
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_rule;  // exact, cases
  std::string report;
  for (const auto& c : cases) {
    const auto set = p.perturb(c.input);
    std::vector<bool> seen(c.expected.size(), false);
    bool all_right = true;
    std::string wrong;
    for (const auto& q : set.perturbations) {
      ++produced;
      bool ok = false;
      for (std::size_t e = 0; e < c.expected.size(); ++e) {
        if (testing::matches(c.expected[e], q.text, *resources.first_names)) {
          ok = true;
          seen[e] = true;
        }
      }
      right += ok;
      if (!ok) {
        all_right = false;
        wrong += "\n    wrong: " + q.text;
      }
    }
    expected += c.expected.size();
    std::string missed;
    for (std::size_t e = 0; e < c.expected.size(); ++e) {
      found += seen[e];
      if (!seen[e]) missed += "\n    missed: " + c.expected[e];
    }
    const bool full = all_right && missed.empty();
    exact += full;
    by_rule[c.rule].first += full;
    ++by_rule[c.rule].second;
    if (!full) {
      report += "\n  line " + std::to_string(c.line) + " [" + c.rule + "] " + c.input + wrong +
                missed;
    }
  }
  std::string rules;
  for (const auto& [rule, n] : by_rule) rules += "\n  " + rule + ": " + percent(n.first, n.second);
  const double precision = produced ? static_cast<double>(right) / produced : 1.0;
  const double full_share = static_cast<double>(exact) / cases.size();
  RecordProperty("precision", std::to_string(precision));
  RecordProperty("recall", std::to_string(expected ? static_cast<double>(found) / expected : 1.0));
  RecordProperty("full", std::to_string(full_share));
  std::printf("hand-written: precision %s, recall %s, sentences fully right %s%s\n",
              percent(right, produced).c_str(), percent(found, expected).c_str(),
              percent(exact, cases.size()).c_str(), rules.c_str());
  EXPECT_GE(precision, 0.95) << "cases not fully right:" << report;
  EXPECT_GE(full_share, 0.90) << "cases not fully right:" << report;
}

// Perturbations of real text (rt-polarity, SST-2, the IMDB sample), sampled with a seed and
// judged by reading. Precision is counted over every perturbation the perturbator now makes of
// those inputs, an output nobody judged counting as wrong (so a change of the perturbator
// cannot raise it without its new outputs being judged).
TEST(GenderJudged, SampledFromCorpora) {
  if (!std::filesystem::exists(testing::kShared + "/rt-polarity-v1.0/rt-polarity.pos"))
    GTEST_SKIP() << "../shared/data absent";
  const auto& resources = testing::default_resources();
  const Perturbator p(resources, gender_attribute());
  const auto judged = testing::read_sampled(kJudged + "/sampled.tsv");
  ASSERT_GE(judged.size(), 300u);
  using Input = std::pair<std::string, std::size_t>;  // source, line
  std::map<std::pair<Input, std::string>, const testing::JudgedPerturbation*> verdict;
  std::vector<Input> inputs;
  std::size_t judged_right = 0;
  for (const auto& j : judged) {
    const Input in{j.source, j.line};
    if (std::find(inputs.begin(), inputs.end(), in) == inputs.end()) inputs.push_back(in);
    verdict[{in, j.changes}] = &j;
    judged_right += j.verdict == "right";
  }
  std::size_t produced = 0, right = 0, unjudged = 0, still_made = 0;
  std::string report;
  for (const auto& in : inputs) {
    const auto text = testing::corpus_line(testing::kShared + "/" + in.first, in.second);
    for (const auto& q : p.perturb(text).perturbations) {
      const auto sig = testing::signature(q);
      const auto it = verdict.find({in, sig});
      const std::string where = "\n  " + in.first + ":" + std::to_string(in.second) + " ";
      if (it == verdict.end()) {
        ++unjudged;
        report += where + "unjudged\t" + sig + "\n    " + q.text;
        continue;
      }
      ++produced;
      if (it->second->verdict == "right") {
        ++right;
        ++still_made;
      } else {
        report += where + "wrong (" + it->second->reason + ")\t" + sig;
      }
    }
  }
  const double precision =
      produced + unjudged ? static_cast<double>(right) / (produced + unjudged) : 1.0;
  RecordProperty("precision", std::to_string(precision));
  std::printf("sampled: %zu inputs; precision %s (unjudged %zu counted wrong); right ones "
              "still made %s\n",
              inputs.size(), percent(right, produced + unjudged).c_str(), unjudged,
              percent(still_made, judged_right).c_str());
  // The goal is 0.95, as on the hand-written set; real reviews are not there yet (film
  // titles, surnames and non-person senses; docs/fairness.md), so this is a floor under the
  // measured precision that no change may lower.
  EXPECT_GE(precision, 0.71) << report;
}

}  // namespace
}  // namespace assay::fairness
