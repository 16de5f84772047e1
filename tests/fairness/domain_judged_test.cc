// Every attribute's perturbations of text of other kinds than film reviews (Debian's fortunes,
// WordNet's example sentences, SpamAssassin's mail, hand-written everyday text: reviews of
// restaurants and shops, captions, forum questions, news), judged by reading
// (tests/data/fairness/domains/<attribute>.tsv; the judging rule is in docs/fairness.md, "Judged
// sets"). Per domain: precision over every perturbation now made of the judged inputs, an unjudged
// one counting as wrong. The goal is 95 %, as on film reviews; no domain may get more wrong (or
// unjudged) perturbations than it has today, so that a change that makes one kind of text worse
// fails even where the figure is far from the goal.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fairness/perturbator.h"
#include "fairness/referent_checks.h"
#include "fairness/sensitive_attribute.h"
#include "fairness_test_support.h"
#include "judged_set.h"

namespace assay::fairness {
namespace {

struct Floor {
  const char* attribute;
  const char* domain;     // the rows' source
  std::size_t max_wrong;  // wrong or unjudged perturbations of its inputs today
};

// Today's figures, and the ones before the checks of referent_checks.h, are in docs/fairness.md
// ("Text of other kinds").
constexpr Floor kFloors[] = {
    {"gender", "corpora/fortunes.txt", 38},
    {"gender", "corpora/wordnet.txt", 14},
    {"gender", "corpora/mail.txt", 36},
    {"gender", "domains/everyday.txt", 7},
    {"gender", "domains/everyday-2.txt", 17},
    {"race", "corpora/fortunes.txt", 45},
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
    {"nationality", "corpora/wordnet.txt", 8},
    {"nationality", "corpora/mail.txt", 14},
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
  const Perturbator p(
      testing::default_resources(),
      name == "gender" ? gender_attribute() : load_attribute(name, default_attribute_dir()));
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
    std::printf(
        "%s on %s: %zu inputs; precision %zu / %zu = %.1f %% (unjudged %zu counted wrong; "
        "goal 95 %%, at most %zu wrong); right ones still made %zu / %zu\n",
        name.c_str(), f.domain, set.inputs.size(), s.right, s.made, 100.0 * precision, s.unjudged,
        f.max_wrong, s.right, set.judged_right);
    if (std::getenv("ASSAY_JUDGED_REPORT")) std::printf("%s\n", s.report.c_str());
    EXPECT_LE(s.made - s.right, f.max_wrong) << f.domain << s.report;
  }
  EXPECT_EQ(domains, 5u);
}

// What each check of referent_checks.h does on every judged set of sampled text (the kinds above
// and the film reviews): switched off alone, the perturbations it had removed come back; of
// those, how many were judged right, wrong, or never judged. A check must remove at least as
// many judged wrong as judged right, or it costs more than it saves.
TEST(CheckAblation, EachCheckRemovesMoreWrongThanRight) {
  if (!std::filesystem::exists(testing::source_path("corpora/fortunes.txt")) ||
      !std::filesystem::exists(testing::kShared + "/rt-polarity-v1.0/rt-polarity.pos"))
    GTEST_SKIP() << "data/corpora or ../shared/data absent";
  struct Attribute {
    std::string name;
    std::vector<testing::JudgedPerturbation> rows;
    SensitiveAttribute attribute;
  };
  std::vector<Attribute> attributes;
  for (const std::string name :
       {"gender", "race", "religion", "sexual-orientation", "nationality", "age"}) {
    auto rows = testing::read_sampled(testing::kData + "/domains/" + name + ".tsv");
    const auto film = testing::read_sampled(
        name == "gender" ? testing::kData + "/gender-judged/sampled.tsv"
                         : testing::kData + "/attribute-judged/" + name + "-sampled.tsv");
    rows.insert(rows.end(), film.begin(), film.end());
    attributes.push_back(
        {name, std::move(rows),
         name == "gender" ? gender_attribute() : load_attribute(name, default_attribute_dir())});
  }
  using Made = std::set<std::pair<testing::Input, std::string>>;
  const auto made_by = [](const Perturbator& p, const testing::SampledSet& set) {
    Made made;
    for (const auto& in : set.inputs) {
      const auto text = testing::corpus_line(testing::source_path(in.first), in.second);
      for (const auto& q : p.perturb(text).perturbations) made.insert({in, testing::signature(q)});
    }
    return made;
  };
  std::vector<const Check*> checks;
  for (const auto list : {insertion_checks(), gender_swap_checks(), name_checks()}) {
    for (const auto& c : list) checks.push_back(&c);
  }
  // right, wrong, unjudged; on the other kinds of text, then on the film reviews
  std::vector<std::array<std::size_t, 6>> removed(checks.size());
  for (const auto& a : attributes) {
    const testing::SampledSet set(a.rows);
    const Made on = made_by(Perturbator(testing::default_resources(), a.attribute), set);
    for (std::size_t k = 0; k < checks.size(); ++k) {
      PerturbatorOptions off;
      off.disabled_checks.insert(std::string(checks[k]->name));
      for (const auto& key :
           made_by(Perturbator(testing::default_resources(), a.attribute, off), set)) {
        if (on.count(key)) continue;
        const auto it = set.verdict.find(key);
        const std::size_t film =
            key.first.first.rfind("corpora/", 0) != 0 && key.first.first.rfind("domains/", 0) != 0
                ? 3
                : 0;
        ++removed[k][film + (it == set.verdict.end() ? 2 : it->second->verdict == "right" ? 0 : 1)];
        if (std::getenv("ASSAY_JUDGED_REPORT"))
          std::printf("%s\t%s\t%zu\t%s\t%s\n", std::string(checks[k]->name).c_str(),
                      key.first.first.c_str(), key.first.second, key.second.c_str(),
                      it == set.verdict.end() ? "?" : it->second->verdict.c_str());
      }
    }
  }
  for (std::size_t k = 0; k < checks.size(); ++k) {
    const auto& r = removed[k];
    std::printf(
        "check %-16s removes, of other kinds of text: %3zu judged wrong, %3zu right, %3zu "
        "unjudged; of film reviews: %3zu wrong, %3zu right, %3zu unjudged\n",
        std::string(checks[k]->name).c_str(), r[1], r[0], r[2], r[4], r[3], r[5]);
    EXPECT_GE(r[1] + r[4], r[0] + r[3]) << checks[k]->name;
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, DomainJudged,
                         ::testing::Values("gender", "race", "religion", "sexual-orientation",
                                           "nationality", "age"),
                         testing::attribute_test_name);

}  // namespace
}  // namespace assay::fairness
