// CLI tests of `assay aeon score` and `assay aeon filter` on the tiny BERT checkpoint.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/temp_dir.h"

namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kModel = std::string(ASSAY_TEST_DATA_DIR) + "/lm/bert";
const std::string kSimcse = std::string(ASSAY_TEST_DATA_DIR) + "/lm/bert/simcse";

std::vector<nlohmann::json> jsonl(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(AeonScoreCommand, LineFilesToJsonl) {
  TempDir dir;
  const auto ori = dir.write("ori.txt", "the movie was [[very]] good .\nhello world\n");
  const auto gen = dir.write("gen.txt", "the movie was [[quite]] good .\nhello world\n");
  const auto r = run_assay(dir, "aeon score --original " + ori + " --generated " + gen +
                                    " --model-dir " + kModel + " --embedding-dir " + kSimcse);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = jsonl(r.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["original"], "the movie was very good .");  // markers stripped
  EXPECT_LT(rows[0]["SemEval"].get<double>(), 1.0);
  EXPECT_GT(rows[0]["SynEval"].get<double>(), 0.0);
  EXPECT_EQ(rows[1]["SemEval"].get<double>(), 1.0);  // identical texts
  EXPECT_EQ(rows[1]["SynEval"], rows[1]["SynEval_original"]);
  EXPECT_EQ(rows[1]["SynEval_relative"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(rows[0]["SynEval_relative"].get<double>(),
                   rows[0]["SynEval"].get<double>() - rows[0]["SynEval_original"].get<double>());
  EXPECT_EQ(rows[0]["semeval_backend"], "bert:" + kSimcse + ":pooler:reference");
  EXPECT_EQ(rows[0]["syneval_backend"], "bert-mlm:" + kModel);
}

TEST(AeonScoreCommand, AnnotationCsvRoundTripsThroughEval) {
  TempDir dir;
  const std::string in = std::string(ASSAY_TEST_DATA_DIR) + "/aeon/example_annotations.csv";
  const std::string out = dir.file("scored.csv");
  const auto r =
      run_assay(dir, "aeon score --annotations " + in + " --model-dir " + kModel + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string scored = read_file(out);
  EXPECT_EQ(
      scored.substr(0, scored.find('\n')),
      "attack_method,dataset,number,BLEU,SemEval,SynEval,adv_text,ori_text,fluency,consistency");
  EXPECT_EQ(scored.find("0.97,0.41"), std::string::npos);  // the old scores are replaced
  const auto e =
      run_assay(dir, "aeon eval --annotations " + out +
                         " --metric SemEval --metric SynEval --threshold 3.0 --format jsonl");
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(jsonl(e.out).size(), 2u);
}

TEST(AeonScoreCommand, RelativeSynEvalColumnIsTheDifferenceFromTheOriginal) {
  TempDir dir;
  const std::string in = std::string(ASSAY_TEST_DATA_DIR) + "/aeon/example_annotations.csv";
  const std::string abs_csv = dir.file("abs.csv"), rel_csv = dir.file("rel.csv");
  ASSERT_EQ(run_assay(dir, "aeon score --annotations " + in + " --model-dir " + kModel + " --out " +
                               abs_csv)
                .exit_code,
            0);
  const auto r = run_assay(dir, "aeon score --annotations " + in + " --model-dir " + kModel +
                                    " --syneval-column relative --out " + rel_csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto bogus = run_assay(
      dir, "aeon score --annotations " + in + " --model-dir " + kModel + " --syneval-column bogus");
  EXPECT_EQ(bogus.exit_code, 2);
  EXPECT_NE(bogus.err.find("--syneval-column must be absolute or relative"), std::string::npos);
  const auto no_csv = run_assay(dir, "aeon score --pairs " + in + " --syneval-column relative");
  EXPECT_EQ(no_csv.exit_code, 2);
  EXPECT_NE(no_csv.err.find("--syneval-column applies to --annotations only"), std::string::npos)
      << no_csv.err;
  const auto e =
      run_assay(dir, "aeon eval --annotations " + rel_csv +
                         " --metric SynEval --target fluency --threshold 3.0 --format jsonl");
  ASSERT_EQ(e.exit_code, 0) << e.err;
  // Column 6 (SynEval) follows five unquoted fields; absolute − relative = Nat(original),
  // which is a probability-like value in (0, 1].
  auto syneval_column = [](const std::string& text) {
    std::vector<double> v;
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) {
      std::size_t at = 0;
      for (int k = 0; k < 5; ++k) at = line.find(',', at) + 1;
      v.push_back(std::stod(line.substr(at, line.find(',', at) - at)));
    }
    return v;
  };
  const auto a = syneval_column(read_file(abs_csv)), rel = syneval_column(read_file(rel_csv));
  ASSERT_EQ(a.size(), rel.size());
  ASSERT_GT(a.size(), 0u);
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_GE(rel[k], -1.0);
    EXPECT_LE(rel[k], 1.0);
    EXPECT_GT(a[k] - rel[k], 0.0) << k;
    EXPECT_LE(a[k] - rel[k], 1.0 + 1e-9) << k;
  }
}

TEST(AeonScoreCommand, CsvFormatAndPairsJsonl) {
  TempDir dir;
  const auto pairs = dir.write("p.jsonl", R"({"ori_text":"i liked it","adv_text":"i hated it"})"
                                          "\n");
  const auto r =
      run_assay(dir, "aeon score --pairs " + pairs + " --model-dir " + kModel + " --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "original,generated,SemEval,SynEval,SynEval_original,SynEval_relative,semeval_backend,"
            "syneval_backend");
  EXPECT_NE(r.out.find("i liked it,i hated it,0."), std::string::npos) << r.out;
}

TEST(AeonScoreCommand, BadInputsExitTwoWithoutOutput) {
  TempDir dir;
  const auto ori = dir.write("ori.txt", "a\nb\n");
  const auto gen = dir.write("gen.txt", "a\n");
  const std::string out = dir.file("out.jsonl");
  auto r = run_assay(dir, "aeon score --original " + ori + " --generated " + gen + " --model-dir " +
                              kModel + " --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(gen + ":1: ends after 1 lines"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  r = run_assay(dir, "aeon score --original " + ori + " --generated " + ori + " --model-dir " +
                         dir.file("none"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a directory"), std::string::npos) << r.err;
  // A masked LM is needed for SynEval: the SimCSE checkpoint alone has no MLM head.
  r = run_assay(
      dir, "aeon score --original " + ori + " --generated " + ori + " --embedding-dir " + kSimcse);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("SynEval needs a masked-LM checkpoint"), std::string::npos) << r.err;
  const auto bad = dir.write("bad.jsonl", "{\"original\":\"x\"}\n");
  r = run_assay(dir, "aeon score --pairs " + bad + " --model-dir " + kModel);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad + ":1: expected a string field 'generated'"), std::string::npos)
      << r.err;
}

TEST(AeonFilterCommand, KeepsAndDropsWithReasons) {
  TempDir dir;
  const auto scores =
      dir.write("s.jsonl",
                "{\"original\":\"a\",\"generated\":\"b\",\"SemEval\":0.95,\"SynEval\":0.3}\n"
                "{\"original\":\"a\",\"generated\":\"c\",\"SemEval\":0.88,\"SynEval\":0.3}\n"
                "{\"original\":\"a\",\"generated\":\"d\",\"SemEval\":0.95,\"SynEval\":0.1}\n");
  const std::string kept = dir.file("kept.jsonl"), dropped = dir.file("dropped.jsonl");
  auto r = run_assay(dir, "aeon filter --scores " + scores + " --task nli --kept " + kept +
                              " --dropped " + dropped);
  ASSERT_EQ(r.exit_code, 1) << r.err;  // the oracle dropped cases
  EXPECT_NE(r.out.find("kept 1, dropped 2"), std::string::npos) << r.out;
  const auto d = jsonl(read_file(dropped));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0]["reason"], "SemEval 0.880 < 0.9");
  EXPECT_EQ(d[1]["reason"], "SynEval 0.100 < 0.21");
  // The sentiment threshold keeps the second case; an override can drop everything.
  r = run_assay(dir, "aeon filter --scores " + scores + " --task sa --kept " + kept +
                         " --dropped " + dropped);
  EXPECT_NE(r.out.find("kept 2, dropped 1"), std::string::npos) << r.out;
  r = run_assay(dir, "aeon filter --scores " + scores + " --task sa --sim-threshold 0.99 --kept " +
                         kept + " --dropped " + dropped);
  EXPECT_NE(r.out.find("kept 0, dropped 3"), std::string::npos) << r.out;
  // Dropping more than 90 % is said on stderr (the lines name no backend: "given" scores).
  EXPECT_THAT(r.err, HasSubstr("warning: aeon filter dropped 3 of 3 cases (100%); its thresholds "
                               "(SemEval >= 0.99, SynEval >= 0.21) may not suit the given scores"));
  r = run_assay(dir, "aeon filter --scores " + scores +
                         " --task sa --sim-threshold 0 --nat-threshold 0 --kept " + kept +
                         " --dropped " + dropped);
  EXPECT_EQ(r.exit_code, 0) << r.err;  // everything kept
  EXPECT_NE(r.out.find("kept 3, dropped 0"), std::string::npos) << r.out;
  r = run_assay(dir, "aeon filter --scores " + scores + " --task qa --kept " + kept +
                         " --dropped " + dropped);
  EXPECT_EQ(r.exit_code, 2);
  const auto bad = dir.write("bad.jsonl", "{\"SemEval\":\"high\",\"SynEval\":0.3}\n");
  std::filesystem::remove(kept);
  r = run_assay(
      dir, "aeon filter --scores " + bad + " --task sa --kept " + kept + " --dropped " + dropped);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad + ":1: field 'SemEval' is not a number"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(kept));
}

// The kept and dropped files appear together or not at all: here writing the dropped cases
// fails (a file size limit of 1 KiB, SIGXFSZ ignored) after the kept ones were written, and
// the old kept file must be left as it was, with no temporary file beside it.
TEST(AeonFilterCommand, FailedOutputLeavesBothOutputsUntouched) {
  TempDir dir;
  std::string lines = "{\"original\":\"a\",\"generated\":\"b\",\"SemEval\":0.95,\"SynEval\":0.3}\n";
  for (int i = 0; i < 200; ++i) {
    lines += "{\"original\":\"a rather long original sentence\",\"generated\":\"case " +
             std::to_string(i) + "\",\"SemEval\":0.5,\"SynEval\":0.3}\n";
  }
  const auto scores = dir.write("s.jsonl", lines);
  const std::string kept = dir.write("kept.jsonl", "old kept\n");
  const std::string dropped = dir.file("dropped.jsonl");
  const std::string cmd = "trap '' XFSZ; ulimit -f 2; " + std::string(ASSAY_BINARY) +
                          " aeon filter --scores " + scores + " --task sa --kept " + kept +
                          " --dropped " + dropped + " > " + dir.file("out") + " 2> " +
                          dir.file("err") + " < /dev/null";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(read_file(dir.file("err")).find(dropped + ": write failed"), std::string::npos)
      << read_file(dir.file("err"));
  EXPECT_EQ(read_file(kept), "old kept\n");
  EXPECT_FALSE(std::filesystem::exists(dropped));
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }
}

}  // namespace
