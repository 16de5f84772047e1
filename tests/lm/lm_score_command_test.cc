// `assay lm score` end to end through the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>

#include "lm/sphinx_model.h"
#include "support/temp_dir.h"

namespace {

using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kTiny = std::string(ASSAY_TEST_DATA_DIR) + "/lm/tiny.arpa";

std::vector<nlohmann::json> parse_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(LmScoreCommand, ArpaModelJsonLines) {
  TempDir dir;
  const auto input = dir.write("in.txt", "a b\nA zz B\n\n");
  const auto r =
      run_assay(dir, "lm score --ngram-model arpa:" + kTiny + " --input " + input + " --lowercase");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_lines(r.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["sentence"], "a b");
  EXPECT_NEAR(rows[0]["logprob"].get<double>(), -1.05 * std::numbers::ln10, 1e-5);
  EXPECT_EQ(rows[0]["n_tokens"], 3);
  EXPECT_EQ(rows[0]["n_oov"], 0);
  EXPECT_NEAR(rows[0]["fluency"].get<double>(), 1 / (1 + 1.05 * std::numbers::ln10 / 3), 1e-6);
  EXPECT_EQ(rows[1]["sentence"], "A zz B");
  EXPECT_EQ(rows[1]["n_oov"], 1);
  EXPECT_NEAR(rows[1]["logprob"].get<double>(), -1.5 * std::numbers::ln10, 1e-5);
  EXPECT_EQ(rows[2]["n_tokens"], 1);  // an empty line scores </s> alone
}

TEST(LmScoreCommand, OutFileAndUnkPolicy) {
  TempDir dir;
  const auto input = dir.write("in.txt", "a zz b\n");
  const auto out = dir.file("scores.jsonl");
  const auto r = run_assay(dir, "lm score --ngram-model arpa:" + kTiny + " --input " + input +
                                    " --oov unk --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  const auto rows = parse_lines(assay::testing::read_file(out));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["n_tokens"], 4);
  EXPECT_NEAR(rows[0]["logprob"].get<double>(), -3.2 * std::numbers::ln10, 1e-5);
}

TEST(LmScoreCommand, CmuModelFromStdin) {
  if (!std::filesystem::exists(assay::lm::kCmuTrigramPath)) {
    GTEST_SKIP() << assay::lm::kCmuTrigramPath << " is absent";
  }
  TempDir dir;
  const auto input = dir.write("in.txt", "the cat sat on the mat\n");
  // run_assay feeds /dev/null to stdin, so this one runs the binary itself.
  const std::string out = dir.file("out.jsonl");
  const std::string cmd = std::string(ASSAY_BINARY) + " lm score --input - <" + input + " >" + out;
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto rows = parse_lines(assay::testing::read_file(out));
  ASSERT_EQ(rows.size(), 1u);
  // sphinx_lm_eval: lm score -323544 in log base 1.0001 (tests/data/lm goldens, line 1).
  EXPECT_NEAR(rows[0]["logprob"].get<double>(), -323544 * std::log(1.0001), 1e-6);
  EXPECT_EQ(rows[0]["n_tokens"], 7);
}

// Standard output that cannot be written (/dev/full) stops the command at the first failed
// write, exit 2 naming standard output — here with endless input, which would otherwise be
// read to the end before the failure is noticed.
TEST(LmScoreCommand, FailedWriteToStandardOutputStopsPromptly) {
  TempDir dir;
  const std::string err = dir.file("err");
  const std::string cmd = "yes 'a b' | timeout 60 " + std::string(ASSAY_BINARY) +
                          " lm score --ngram-model arpa:" + kTiny + " > /dev/full 2> " + err;
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(assay::testing::read_file(err),
              HasSubstr("assay: error: cannot write standard output: No space left on device"));
}

TEST(LmScoreCommand, BadInputsExitTwo) {
  TempDir dir;
  const auto input = dir.write("in.txt", "a b\n");
  auto r = run_assay(dir, "lm score --ngram-model kenlm:x --input " + input);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("expected cmu, arpa:FILE or sphinx:FILE"));

  const std::string broken = std::string(ASSAY_TEST_DATA_DIR) + "/lm/broken/bad_prob.arpa";
  const auto out = dir.file("never.jsonl");
  r = run_assay(dir,
                "lm score --ngram-model arpa:" + broken + " --input " + input + " --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad_prob.arpa:11:1: expected a log10 probability"));
  EXPECT_FALSE(std::filesystem::exists(out));

  r = run_assay(dir, "lm score --ngram-model sphinx:/nonexistent/en-us.lm.bin --input " + input);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("apt-get install pocketsphinx-en-us"));

  const auto latin1 = dir.write("latin1.txt", "a b\ncaf\xe9\n");
  r = run_assay(dir,
                "lm score --ngram-model arpa:" + kTiny + " --input " + latin1 + " --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("latin1.txt:2:4: invalid UTF-8"));
  EXPECT_FALSE(std::filesystem::exists(out));

  r = run_assay(dir, "lm score --ngram-model arpa:" + kTiny + " --input " + input + " --oov maybe");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--oov must be skip or unk"));
}

}  // namespace
