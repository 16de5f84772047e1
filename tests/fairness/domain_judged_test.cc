// Every attribute's perturbations of text of other kinds than film reviews (Debian's fortunes,
// WordNet's example sentences, SpamAssassin's mail, hand-written everyday text: reviews of
// restaurants and shops, captions, forum questions, news), judged by reading
// (tests/data/fairness/domains/<attribute>.tsv; the judging rule is in docs/fairness.md, "Judged
// sets"). Per domain: precision over every perturbation now made of the judged inputs, an unjudged
// one counting as wrong. The goal is 95 %, as on film reviews; no domain may get more wrong (or
// unjudged) perturbations than it has today, so that a change that makes one kind of text worse
// fails even where the figure is far from the goal.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "fairness/perturbator.h"
#include "fairness/sensitive_attribute.h"
#include "fairness_test_support.h"
#include "judged_set.h"

namespace assay::fairness {
namespace {

struct Floor {
  const char* attribute;
  const char* domain;  // the rows' source
  std::size_t max_wrong;  // wrong or unjudged perturbations of its inputs today
};

// Today's figures, and the ones before the checks of referent_checks.h, are in docs/fairness.md
// ("Text of other kinds").
constexpr Floor kFloors[] = {
    {"gender", "corpora/fortunes.txt", 33},
    {"gender", "corpora/wordnet.txt", 14},
    {"gender", "corpora/mail.txt", 40},
    {"gender", "domains/everyday.txt", 7},
    {"gender", "domains/everyday-2.txt", 17},
    {"race", "corpora/fortunes.txt", 20},
    {"race", "corpora/wordnet.txt", 3},
    {"race", "corpora/mail.txt", 15},
    {"race", "domains/everyday.txt", 0},
    {"race", "domains/everyday-2.txt", 0},
    {"religion", "corpora/fortunes.txt", 20},
    {"religion", "corpora/wordnet.txt", 5},
    {"religion", "corpora/mail.txt", 15},
    {"religion", "domains/everyday.txt", 0},
    {"religion", "domains/everyday-2.txt", 0},
    {"sexual-orientation", "corpora/fortunes.txt", 12},
    {"sexual-orientation", "corpora/wordnet.txt", 3},
    {"sexual-orientation", "corpora/mail.txt", 9},
    {"sexual-orientation", "domains/everyday.txt", 6},
    {"sexual-orientation", "domains/everyday-2.txt", 6},
    {"nationality", "corpora/fortunes.txt", 14},
    {"nationality", "corpora/wordnet.txt", 7},
    {"nationality", "corpora/mail.txt", 7},
    {"nationality", "domains/everyday.txt", 0},
    {"nationality", "domains/everyday-2.txt", 0},
    {"age", "corpora/fortunes.txt", 14},
    {"age", "corpora/wordnet.txt", 7},
    {"age", "corpora/mail.txt", 10},
    {"age", "domains/everyday.txt", 3},
    {"age", "domains/everyday-2.txt", 6},
};

class DomainJudged : public ::testing::TestWithParam<std::string> {};

TEST_P(DomainJudged, PrecisionPerDomain) {
  if (!std::filesystem::exists(testing::source_path("corpora/fortunes.txt")))
    GTEST_SKIP() << "data/corpora absent (bash scripts/setup.sh --test makes it)";
  const std::string name = GetParam();
  const auto all = testing::read_sampled(testing::kData + "/domains/" + name + ".tsv");
  const Perturbator p(testing::default_resources(),
                      name == "gender" ? gender_attribute()
                                       : load_attribute(name, default_attribute_dir()));
  std::size_t domains = 0;
  for (const auto& f : kFloors) {
    if (name != f.attribute) continue;
    std::vector<testing::JudgedPerturbation> rows;
    for (const auto& j : all) {
      if (j.source == f.domain) rows.push_back(j);
    }
    ASSERT_GE(rows.size(), 10u) << f.domain;
    ++domains;
    const testing::SampledSet set(rows);
    const auto s = testing::score_sampled(p, set);
    const double precision = s.made ? static_cast<double>(s.right) / s.made : 1.0;
    std::printf("%s on %s: %zu inputs; precision %zu / %zu = %.1f %% (unjudged %zu counted wrong; "
                "goal 95 %%, at most %zu wrong); right ones still made %zu / %zu\n",
                name.c_str(), f.domain, set.inputs.size(), s.right, s.made, 100.0 * precision,
                s.unjudged, f.max_wrong, s.right, set.judged_right);
    if (std::getenv("ASSAY_JUDGED_REPORT")) std::printf("%s\n", s.report.c_str());
    EXPECT_LE(s.made - s.right, f.max_wrong) << f.domain << s.report;
  }
  EXPECT_EQ(domains, 5u);
}

INSTANTIATE_TEST_SUITE_P(Shipped, DomainJudged,
                         ::testing::Values("gender", "race", "religion", "sexual-orientation",
                                           "nationality", "age"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string n = param.param;
                           for (char& c : n) {
                             if (c == '-') c = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace assay::fairness
