#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

// A built-in LR trained on a small set where "actress" and "female" only occur in negative
// texts: swapping actor -> actress or inserting "female" flips the label, which `fair test`
// must report; the rerun answers everything from the cache.
TEST(FairTestCommand, ViolationsSummaryAndCache) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  assay::testing::RunResult r;
  const auto in = dir.write("in.txt", "the actor was wonderful\n\nthe film was wonderful\n");
  const std::string args = "fair test --model lr:" + lr + " --input " + in +
                           " --cache " + dir.file("cache.sqlite") + " --out ";
  r = run_assay(dir, args + dir.file("out1"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("3 inputs, 1 mutable"));
  const auto summary = nlohmann::json::parse(read_file(dir.file("out1/summary.json")));
  EXPECT_EQ(summary["inputs"], 3);
  EXPECT_EQ(summary["mutable"], 1);
  EXPECT_EQ(summary["perturbations"], 3);
  EXPECT_GE(summary["violations"].get<int>(), 1);
  EXPECT_EQ(summary["answers_asked"], 4);  // the original and its three perturbations
  std::istringstream v(read_file(dir.file("out1/violations.jsonl")));
  std::string line;
  bool actress = false;
  while (std::getline(v, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["label_original"], "pos");
    EXPECT_EQ(j["label_perturbed"], "neg");
    actress |= j["perturbed"] == "the actress was wonderful";
  }
  EXPECT_TRUE(actress);
  r = run_assay(dir, args + dir.file("out2"));
  EXPECT_EQ(r.exit_code, 1);
  const auto again = nlohmann::json::parse(read_file(dir.file("out2/summary.json")));
  EXPECT_EQ(again["answers_asked"], 0);
  EXPECT_EQ(read_file(dir.file("out1/violations.jsonl")),
            read_file(dir.file("out2/violations.jsonl")));
  r = run_assay(dir, "fair test --model lr:" + lr + " --input " + in +
                         " --budget 3 --out " + dir.file("o3"));
  EXPECT_EQ(r.exit_code, 2);
}

// Perturbation runs on --threads threads; the model is asked in input order, so violations.jsonl
// and summary.json are byte-identical for 1, 2 and 4 threads (the 47 handwritten sentences
// and their pluralised variants, chunks of 5 inputs, so that several chunks run).
TEST(FairTestCommand, OutputsDoNotDependOnThreads) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  std::istringstream tsv(read_file(std::string(ASSAY_TEST_DATA_DIR) + "/fairness/expected_perturbations.tsv"));
  std::string line, texts;
  std::size_t n = 0;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('\t'), b = line.find('\t', a + 1);
    texts += line.substr(a + 1, b - a - 1) + "\nthe " + line.substr(a + 1, b - a - 1) + " wonderful\n\n";
    n += 3;
  }
  ASSERT_GT(n, 100u);
  const auto in = dir.write("in.txt", texts);
  std::string first_violations, first_summary;
  for (const char* threads : {"1", "2", "4"}) {
    const std::string out = dir.file(std::string("out") + threads);
    const auto r = run_assay(dir, "fair test --model lr:" + lr + " --input " + in + " --chunk 5 --threads " +
                                      threads + " --out " + out);
    ASSERT_EQ(r.exit_code, 1) << r.err;
    const auto violations = read_file(out + "/violations.jsonl");
    const auto summary = read_file(out + "/summary.json");
    if (first_violations.empty()) {
      first_violations = violations;
      first_summary = summary;
      EXPECT_GE(nlohmann::json::parse(summary)["violations"].get<int>(), 10);
      EXPECT_EQ(nlohmann::json::parse(summary)["inputs"].get<std::size_t>(), n);
      continue;
    }
    EXPECT_EQ(violations, first_violations) << threads << " threads";
    EXPECT_EQ(summary, first_summary) << threads << " threads";
  }
  EXPECT_EQ(run_assay(dir, "fair test --model lr:" + lr + " --input " + in + " --threads -1 --out " +
                               dir.file("bad")).exit_code,
            2);
}

}  // namespace
}  // namespace assay::fairness
