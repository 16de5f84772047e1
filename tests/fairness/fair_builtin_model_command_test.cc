// The fairness main job on a fresh clone: the built-in AFINN-165 word-list model (afinn:, the
// lexicon scripts/setup.sh fetches; skipped when it is not installed) through fair test, fair
// mitigate and fair report on the shipped example sentences, with no other data and no other
// process.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "models/lexicon_model.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

TEST(FairBuiltinModel, AfinnThroughTestMitigateAndReport) {
  if (!std::filesystem::exists(models::LexiconModel::builtin_path()))
    GTEST_SKIP() << "the AFINN-165 lexicon is not installed (scripts/setup.sh fetches it)";
  TempDir dir;
  const std::string input =
      std::string(ASSAY_TEST_DATA_DIR) + "/../../examples/models/sentences.txt";
  const std::string common = " --model afinn: --input " + input + " --cache " +
                             dir.file("c.sqlite") + " --quiet --out " + dir.file("afinn");
  auto r = run_assay(dir, "fair test" + common);
  ASSERT_LE(r.exit_code, 1) << r.err;
  const auto s = nlohmann::json::parse(read_file(dir.file("afinn/summary.json")));
  EXPECT_THAT(s["model"].get<std::string>(), HasSubstr("afinn:sha256:"));
  EXPECT_EQ(s["labels"], nlohmann::json::array({"neg", "pos"}));
  EXPECT_GE(s["mutable"].get<int>(), 5);
  EXPECT_EQ(s["answers_asked"].get<int>(), s["mutable"].get<int>() + s["perturbations"].get<int>());
  // Every violation's scores are σ of whole valences: p(pos) = 1 / (1 + e^-v), v an integer.
  std::istringstream v(read_file(dir.file("afinn/violations.jsonl")));
  for (std::string line; std::getline(v, line);) {
    for (const char* key : {"scores_original", "scores_perturbed"}) {
      const double pos = nlohmann::json::parse(line)[key][1].get<double>();
      const double valence = std::log(pos / (1 - pos));
      EXPECT_NEAR(valence, std::round(valence), 1e-9) << line;
    }
  }
  r = run_assay(dir, "fair mitigate --epsilon 0.1,1,10" + common);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto m = nlohmann::json::parse(read_file(dir.file("afinn/mitigation.json")));
  // fair test's texts from its cache; only the classes' neighbourhoods are asked.
  EXPECT_EQ(m["cost"]["answers_asked"], m["layer"]["texts_asked_for_neighbourhoods"]);
  r = run_assay(dir, "fair report --in " + dir.file("afinn") + " --out " + dir.file("r.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(dir.file("r.html"));
  EXPECT_THAT(html, HasSubstr("(model <code>afinn:sha256:"));
  // The words the perturbator changes (actor, actress, his, her) are not in AFINN: no label
  // moves, and the page says so.
  EXPECT_EQ(s["violations"], 0);
  EXPECT_THAT(html, HasSubstr("No rewrite changed a label, so the model favours no group"));
  EXPECT_THAT(html, HasSubstr("<h2>Violations remaining after the neutral layer (Fig. 5)</h2>"));
}

// AFINN-165 answers exactly [0.5, 0.5] for a text with none of its words, labelled neg (the
// first on the tie); "heroine" is not in its lexicon and "hero" is (+2). Eight "the heroine
// arrived" → "the hero arrived" flips start at the decision boundary: summary.json counts them
// apart and the direction test leaves them out, so the page claims no lean and says why.
TEST(FairBuiltinModel, FlipsFromATieAreCountedApart) {
  if (!std::filesystem::exists(models::LexiconModel::builtin_path()))
    GTEST_SKIP() << "the AFINN-165 lexicon is not installed (scripts/setup.sh fetches it)";
  TempDir dir;
  std::string lines;
  for (int i = 0; i < 8; ++i) lines += "the heroine arrived\n";
  const auto in = dir.write("ties.txt", lines);
  auto r =
      run_assay(dir, "fair test --quiet --model afinn: --input " + in + " --out " + dir.file("t"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto s = nlohmann::json::parse(read_file(dir.file("t/summary.json")));
  const auto& male = s["by_group"]["male"];
  EXPECT_EQ(male["violations"], 8);
  EXPECT_EQ(male["flips_toward"]["pos"], 8);
  EXPECT_EQ(male["flips_from_tie"]["pos"], 8);
  EXPECT_EQ(male["direction_test"]["from_tie"], 8);
  EXPECT_EQ(male["direction_test"]["toward"], 0);
  EXPECT_EQ(male["direction_test"]["lean"], 0);
  r = run_assay(dir, "fair report --in " + dir.file("t") + " --out " + dir.file("r.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(dir.file("r.html"));
  EXPECT_THAT(html, HasSubstr("The model favours no group beyond chance"));
  EXPECT_THAT(html, HasSubstr("(8 flips from a text whose top scores tie counted apart)"));
}

}  // namespace
}  // namespace assay::fairness
