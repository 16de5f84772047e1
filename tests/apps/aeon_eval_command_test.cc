// End-to-end tests of `assay aeon eval` through the real binary: output formats, exit codes
// and bad input (message names file and line, exit 2, no output file left behind).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace {

using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kMr =
    std::string(ASSAY_SHARED_DATA_DIR) + "/aeon-annotations/annotation_rtmr.csv";

TEST(AeonEvalCommand, VersionAndHelp) {
  TempDir dir;
  auto r = run_assay(dir, "--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("assay "));
  r = run_assay(dir, "aeon eval --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("--annotations"));
}

TEST(AeonEvalCommand, JsonOutputReproducesMrRow) {
  ASSAY_REQUIRE_FILE(kMr);
  TempDir dir;
  const auto out = dir.file("report.jsonl");
  const auto r = run_assay(dir, "aeon eval --annotations " + kMr +
                                    " --metric SemEval --metric BLEU --target consistency "
                                    "--dataset rtmr --format jsonl --out " +
                                    out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(assay::testing::read_file(out));
  std::string line;
  std::getline(lines, line);
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["metric"], "SemEval");
  EXPECT_EQ(j["target"], "consistency");
  EXPECT_EQ(j["n"], 100);
  EXPECT_NEAR(j["ap"].get<double>(), 0.92, 0.005);
  EXPECT_NEAR(j["auc"].get<double>(), 0.82, 0.005);
  EXPECT_NEAR(j["pcc"].get<double>(), 0.93, 0.005);
}

TEST(AeonEvalCommand, TableOutput) {
  ASSAY_REQUIRE_FILE(kMr);
  TempDir dir;
  const auto r = run_assay(
      dir, "aeon eval --annotations " + kMr + " --metric SynEval --target fluency --dataset rtmr");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("SynEval"));
  EXPECT_THAT(r.out, HasSubstr("0.87"));
}

struct BadCase {
  std::string name;
  std::string content;  // file content, written as ann.csv
  std::string args;     // extra arguments
  std::string expected;
};

class AeonEvalBadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(AeonEvalBadInput, ExitsTwoNamesThePlaceLeavesNoOutput) {
  const BadCase& c = GetParam();
  TempDir dir;
  const auto in = dir.write("ann.csv", c.content);
  const auto out = dir.file("report.txt");
  const auto r = run_assay(dir, "aeon eval --annotations " + in + " --out " + out + " " +
                                    (c.args.empty() ? "--metric SemEval --dataset rtmr" : c.args));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(c.expected));
  EXPECT_FALSE(std::filesystem::exists(out));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, AeonEvalBadInput,
    ::testing::Values(
        BadCase{"MissingColumn", "BLEU,consistency\n0.1,3\n", "",
                "ann.csv:1: expected a column named 'SemEval'"},
        BadCase{"NonNumericScore", "SemEval,consistency\n0.1,3\nn/a,2\n", "",
                "ann.csv:3:1: expected a number for the metric score 'SemEval', got 'n/a'"},
        BadCase{"EmptyFile", "", "", "ann.csv:1: empty file, expected a header row"},
        BadCase{"BinaryFile", std::string("SemEval,consistency\n\x01\x02\0\x03,\xff\n", 26), "",
                "ann.csv:2:3: binary data"},
        BadCase{"InvalidUtf8", "SemEval,consistency,text\n0.5,3,caf\xe9\n", "",
                "ann.csv:2:10: invalid UTF-8"},
        BadCase{"UnknownDataset", "SemEval,consistency\n0.5,3\n", "--metric SemEval --dataset imdb",
                "unknown dataset 'imdb'; expected one of rtmr"},
        BadCase{"MissingThreshold", "SemEval,consistency\n0.5,3\n", "--metric SemEval",
                "give --dataset NAME or --threshold T"}),
    [](const ::testing::TestParamInfo<BadCase>& param_info) { return param_info.param.name; });

TEST(AeonEvalCommand, MissingFileAndUnknownOption) {
  TempDir dir;
  auto r = run_assay(
      dir, "aeon eval --annotations " + dir.file("nope.csv") + " --metric SemEval --dataset rtmr");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nope.csv: cannot open for reading"));
  r = run_assay(dir, "aeon eval --bogus");
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
