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

}  // namespace
}  // namespace assay::fairness
