// Perturbator::neutral_form, the class of a text for the neutral layer: a text and every
// perturbation the perturbator makes of it have one representative (so the layer's certificate
// covers every pair an auditor forms), on hand-written sentences for gender and each shipped
// attribute, on the judged sets' inputs, and on rt-polarity when ../shared/data has it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "fairness/perturbator.h"
#include "fairness/sensitive_attribute.h"
#include "fairness_test_support.h"

namespace assay::fairness {
namespace {

const Perturbator& perturbator_for(const std::string& attribute) {
  static std::map<std::string, std::unique_ptr<Perturbator>> made;
  auto& p = made[attribute];
  if (!p) {
    p = std::make_unique<Perturbator>(testing::default_resources(),
                                      load_attribute(attribute, testing::kAttributes));
  }
  return *p;
}

TEST(NeutralForm, WritesEveryGroupWordInOneForm) {
  const auto& g = perturbator_for("gender");
  EXPECT_EQ(g.neutral_form("the actor was wonderful"), "the person was wonderful");
  EXPECT_EQ(g.neutral_form("The female actor was wonderful"), "The person was wonderful");
  EXPECT_EQ(g.neutral_form("Female actors love it."), "People love it.");
  EXPECT_EQ(g.neutral_form("An actor and a waitress"), "A person and a person");
  EXPECT_EQ(g.neutral_form("John told her that he liked his dog"),
            "Person told their that they liked their dog");
  EXPECT_EQ(g.neutral_form("Mr. Brown thanked the ACTRESS."),
            g.neutral_form("Mrs. Brown thanked the ACTOR."));
  EXPECT_EQ(g.neutral_form("Mr. Brown thanked the ACTRESS."), "Mx. Brown thanked the PERSON.");
  // No word of the attribute: the text itself.
  EXPECT_EQ(g.neutral_form("the film was wonderful , and long"),
            "the film was wonderful , and long");
  EXPECT_EQ(g.neutral_form(""), "");
  const auto& r = perturbator_for("religion");
  EXPECT_EQ(r.neutral_form("The Muslim teacher graded the papers."),
            r.neutral_form("The Christian teacher graded the papers."));
  EXPECT_EQ(r.neutral_form("The Muslim teacher graded the papers."),
            r.neutral_form("The teacher graded the papers."));
  EXPECT_EQ(r.neutral_form("Muslims pray in a mosque."),
            r.neutral_form("Christians pray in a church."));
  const auto& race = perturbator_for("race");
  EXPECT_EQ(race.neutral_form("The white nurse smiled."),
            race.neutral_form("The Native American nurse smiled."));
  EXPECT_EQ(race.neutral_form("The African-American nurse smiled."),
            race.neutral_form("The nurse smiled."));
}

// Every perturbation of every text is in the text's class; returns the pairs checked.
std::size_t expect_one_class(const Perturbator& p, const std::vector<std::string>& texts,
                             const std::string& what) {
  std::size_t pairs = 0, outside = 0;
  for (const auto& t : texts) {
    const std::string r = p.neutral_form(t);
    PerturbationSet set;
    try {
      set = p.perturb(t);
    } catch (const core::ParseError&) {
      continue;  // not UTF-8 (rt-polarity has a few Latin-1 lines)
    }
    for (const auto& x : set.perturbations) {
      ++pairs;
      if (p.neutral_form(x.text) == r) continue;
      if (++outside <= 10) {
        ADD_FAILURE() << what << ": " << t << "\n  -> " << x.text << "\n  class " << r
                      << "\n  class " << p.neutral_form(x.text);
      }
    }
  }
  EXPECT_EQ(outside, 0u) << what << ": of " << pairs << " pairs";
  return pairs;
}

std::vector<std::string> judged_inputs(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("> ", 0) == 0) out.push_back(line.substr(2));
  return out;
}

TEST(NeutralForm, EveryPerturbationOfTheJudgedInputsIsInItsClass) {
  std::vector<std::string> sentences;
  {
    std::ifstream in(std::string(ASSAY_TEST_DATA_DIR) + "/fairness/expected_perturbations.tsv");
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      const auto a = line.find('\t'), b = line.find('\t', a + 1);
      sentences.push_back(line.substr(a + 1, b - a - 1));
    }
  }
  const auto handwritten = judged_inputs(testing::kData + "/gender-judged/handwritten.txt");
  sentences.insert(sentences.end(), handwritten.begin(), handwritten.end());
  EXPECT_GT(expect_one_class(perturbator_for("gender"), sentences, "gender"), 200u);
  for (const std::string a : {"religion", "sexual-orientation", "race", "nationality", "age"}) {
    const auto inputs = judged_inputs(testing::kData + "/attribute-judged/" + a + ".txt");
    ASSERT_FALSE(inputs.empty()) << a;
    EXPECT_GT(expect_one_class(perturbator_for(a), inputs, a), 20u) << a;
  }
}

TEST(NeutralForm, EveryPerturbationOfRtPolarityIsInItsClass) {
  const std::string dir = testing::kShared + "/rt-polarity-v1.0";
  if (!std::filesystem::exists(dir + "/rt-polarity.pos"))
    GTEST_SKIP() << "needs " << dir << " (../shared/data)";
  std::vector<std::string> texts;
  for (const char* f : {"/rt-polarity.pos", "/rt-polarity.neg"}) {
    std::ifstream in(dir + f);
    std::string line;
    for (int i = 0; i < 400 && std::getline(in, line); ++i) texts.push_back(line);
  }
  for (const std::string a : {"gender", "religion", "race", "nationality", "age"})
    expect_one_class(perturbator_for(a), texts, "rt-polarity " + a);
}

}  // namespace
}  // namespace assay::fairness
