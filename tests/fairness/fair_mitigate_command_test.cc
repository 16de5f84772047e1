#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "biased_lr.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

// The LR of fair_test_command_test ("actress" and "female" only in negative texts): `fair
// test` finds violations; `fair mitigate` through the same cache asks only the class's
// neighbourhood (the representative "the person was wonderful and the doctor smiled" and its
// four perturbations), and a rerun asks nothing; it counts the same violations before
// smoothing, none left at ε = 0.1 (the answers are nearly the class's mean) and all at ε = 10
// (nearly M itself).
TEST(FairMitigateCommand, Fig5ThroughTheCache) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  assay::testing::RunResult r;
  // One mutable input with three perturbations: actress, male doctor, female doctor.
  const auto in = dir.write(
      "in.txt", "the actor was wonderful and the doctor smiled\n\nthe film was wonderful\n");
  const std::string common =
      " --model lr:" + lr + " --input " + in + " --cache " + dir.file("cache.sqlite") + " --out ";
  r = run_assay(dir, "fair test" + common + dir.file("ft"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto ft = nlohmann::json::parse(read_file(dir.file("ft/summary.json")));

  r = run_assay(dir, "fair mitigate" + common + dir.file("fm"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("answers: 4 from"));
  EXPECT_THAT(r.err, HasSubstr("5 asked of the model"));
  r = run_assay(dir, "fair mitigate" + common + dir.file("fm"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("answers: 5 from"));  // fair test's answers: its finished chunk
  EXPECT_THAT(r.err, HasSubstr("0 asked of the model"));
  const auto m = nlohmann::json::parse(read_file(dir.file("fm/mitigation.json")));
  EXPECT_EQ(m["layer"]["max_k"], 16);
  EXPECT_EQ(m["layer"]["classes"], 1);
  EXPECT_EQ(m["layer"]["texts_asked_for_neighbourhoods"], 5);
  EXPECT_EQ(m["format"], "assay-fair-mitigation/1");
  EXPECT_EQ(m["inputs"], 3);
  EXPECT_EQ(m["mutable"], 1);
  EXPECT_EQ(m["perturbations"], 3);
  EXPECT_EQ(m["violations_before"], ft["violations"]);
  EXPECT_EQ(m["cost"]["answers_asked"], 0);
  EXPECT_EQ(m["cost"]["answers_from_cache"], 5);
  // Served: the input and its class's neighbourhood of five; the two other inputs one each.
  EXPECT_EQ(m["cost"]["queries_per_mutable_input"], 6.0);
  EXPECT_NEAR(m["cost"]["queries_per_input"].get<double>(), 8.0 / 3.0, 1e-12);
  EXPECT_EQ(m["cost"]["max_k"], 3);
  const auto& rows = m["epsilons"];
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0]["epsilon"], 0.1);
  EXPECT_EQ(rows[0]["certificate"]["k_max"], 16);
  EXPECT_EQ(rows[0]["pairs"], 3);
  EXPECT_EQ(rows[0]["pairs_outside_class"], 0);
  EXPECT_EQ(rows[0]["violations"], 0);
  EXPECT_EQ(rows[0]["remaining_percent"], 0.0);
  EXPECT_EQ(rows[5]["epsilon"], 10.0);
  EXPECT_EQ(rows[5]["violations"], ft["violations"]);
  EXPECT_EQ(rows[5]["remaining_percent"], 100.0);
  for (const auto& row : rows) {
    const double eps = row["epsilon"];
    EXPECT_LE(row["max_realised_epsilon"].get<double>(), eps + 1e-12);
    EXPECT_LE(row["input_set"]["max_realised_epsilon"].get<double>(), eps + 1e-9);
    EXPECT_NEAR(row["reference"]["certified_epsilon"].get<double>(), std::log1p(std::exp(eps)),
                1e-9);
    EXPECT_LE(row["reference"]["max_realised_epsilon"].get<double>(),
              std::log1p(std::exp(eps)) + 1e-9);
  }
  std::istringstream csv(read_file(dir.file("fm/mitigation.csv")));
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(csv, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_THAT(lines[0], HasSubstr("epsilon,violations_before,violations_after,remaining_percent"));
  EXPECT_THAT(lines[1], HasSubstr("0.1,"));

  // Without a cache, one ε: the same counts.
  r = run_assay(dir, "fair mitigate --quiet --model lr:" + lr + " --input " + in +
                         " --epsilon 10 --out " + dir.file("fm2"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto m2 = nlohmann::json::parse(read_file(dir.file("fm2/mitigation.json")));
  ASSERT_EQ(m2["epsilons"].size(), 1u);
  EXPECT_EQ(m2["epsilons"][0]["violations"], rows[5]["violations"]);
  EXPECT_FALSE(m2["cost"].contains("answers_asked"));

  // fair report reads the format, and one it does not know is refused.
  r = run_assay(dir, "fair report --in " + dir.file("fm") + " --out " + dir.file("fm.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto unknown = nlohmann::ordered_json::parse(read_file(dir.file("fm2/mitigation.json")));
  unknown["format"] = "assay-fair-mitigation/7";
  dir.write("fm2/mitigation.json", unknown.dump(2));
  r = run_assay(dir, "fair report --in " + dir.file("fm2") + " --out " + dir.file("fm2.html"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("fm2/mitigation.json: unknown format 'assay-fair-mitigation/7'"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("fm2.html")));

  r = run_assay(dir, "fair mitigate" + common + dir.file("bad") + " --epsilon 0.1,-1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--epsilon"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad/mitigation.json")));
}

// The paper's "LR Base": the biased LR retrained on its training file plus that file's
// perturbations (each with its original's label) balances "actress" and "female" between the
// labels, so fewer violations remain; the saved retrained model, tested by `fair test`, has
// exactly the violations the comparison reports. Only an lr: model can be retrained.
TEST(FairMitigateCommand, AdversarialTrainingComparison) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = dir.write("in.txt",
                            "the actor was wonderful\nthe actress was wonderful\na great actor\n"
                            "the film was wonderful\nthe actor was awful\n");
  auto r =
      run_assay(dir, "fair mitigate --model lr:" + lr + " --input " + in + " --threads 2 --out " +
                         dir.file("fm") + " --adversarial-train " + dir.file("train.tsv") +
                         " --adversarial-model-out " + dir.file("adv.lr"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("adversarial training (LR retrained on 24 texts + "));
  const auto m = nlohmann::json::parse(read_file(dir.file("fm/mitigation.json")));
  const auto& a = m["adversarial_training"];
  EXPECT_EQ(a["train_texts"], 24);
  EXPECT_EQ(a["train_mutable"], 18);  // every text but the six "a female lead and a dull film"?
  // One each: the 18 gendered texts swap actor <-> actress (the lexicon's actor has a gender,
  // so no adjective is inserted before it; "lead" is no person).
  EXPECT_EQ(a["perturbations_added"].get<int>(), 18);
  const int before = m["violations_before"];
  ASSERT_GT(before, 0);
  EXPECT_LT(a["violations"].get<int>(), before);
  EXPECT_NEAR(a["remaining_percent"].get<double>(), 100.0 * a["violations"].get<int>() / before,
              1e-9);
  r = run_assay(dir, "fair test --model lr:" + dir.file("adv.lr") + " --input " + in + " --out " +
                         dir.file("ft"));
  ASSERT_NE(r.exit_code, 2) << r.err;
  const auto ft = nlohmann::json::parse(read_file(dir.file("ft/summary.json")));
  EXPECT_EQ(ft["violations"], a["violations"]);
  EXPECT_EQ(ft["model"], a["model"]);
  r = run_assay(dir, "fair mitigate --model 'cmd:/bin/cat' --input " + in + " --out " +
                         dir.file("x") + " --adversarial-train " + dir.file("train.tsv"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--model must be lr:FILE"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("x/mitigation.json")));
}

}  // namespace
}  // namespace assay::fairness
