// `assay model train-lr` and `assay model predict` end to end through the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/temp_dir.h"

namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

std::vector<nlohmann::json> parse_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

const char* kTrain =
    "label\ttext\n"
    "pos\ta \"good\" fun film\n"  // TSV: quotes are ordinary characters
    "neg\ta bad dull film\n"
    "pos\tgreat fun , great cast\n"
    "neg\tdull mess , bad cast\n";

std::string train(const TempDir& dir) {
  const auto tsv = dir.write("train.tsv", kTrain);
  const auto model = dir.file("m.lr");
  const auto r = run_assay(dir, "model train-lr --train " + tsv + " --out " + model);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("4 documents"));
  return model;
}

TEST(ModelCommands, TrainThenPredictPlainLines) {
  TempDir dir;
  const auto model = train(dir);
  const auto input = dir.write("in.txt", "great fun\nbad mess\n\n");
  const auto r = run_assay(dir, "model predict --model lr:" + model + " --input " + input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_lines(r.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["text"], "great fun");
  EXPECT_EQ(rows[0]["label"], "pos");
  EXPECT_EQ(rows[1]["label"], "neg");
  EXPECT_EQ(rows[2]["text"], "");
  ASSERT_EQ(rows[0]["scores"].size(), 2u);
  EXPECT_NEAR(rows[0]["scores"][0].get<double>() + rows[0]["scores"][1].get<double>(), 1, 1e-12);
}

TEST(ModelCommands, TsvInputCacheAndBudget) {
  TempDir dir;
  const auto model = train(dir);
  const auto input = dir.write("in.tsv", "id\tsentence\n1\tfun film\n2\tdull\n3\tcast\n4\tfun\n");
  const auto cache = dir.file("cache.sqlite");
  const std::string base = "model predict --model lr:" + model + " --input " + input +
                           " --text-column sentence --cache " + cache;
  auto r = run_assay(dir, base + " --budget 3 --batch 2 --out " + dir.file("a.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("budget of 3"));
  EXPECT_THAT(r.err, HasSubstr("1 of 4 inputs remain unanswered"));
  EXPECT_THAT(r.err, HasSubstr("to continue"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.jsonl")));  // no partial output
  r = run_assay(dir, base + " --budget 3 --out " + dir.file("b.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("4 inputs, 3 answered from " + cache + ", 1 asked of the model"));
  const auto rows = parse_lines(read_file(dir.file("b.jsonl")));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["text"], "fun film");
  EXPECT_EQ(rows[3]["label"], "pos");
  // Same answers without the cache.
  r = run_assay(
      dir, "model predict --model lr:" + model + " --input " + input + " --text-column sentence");
  EXPECT_EQ(parse_lines(r.out), rows);
}

TEST(ModelCommands, CsvInputWithQuotedFields) {
  TempDir dir;
  const auto model = train(dir);
  const auto input =
      dir.write("in.csv", "id,review\n1,\"great fun, great cast\"\n2,\"a \"\"dull\"\" mess\"\n");
  const auto r = run_assay(
      dir, "model predict --model lr:" + model + " --input " + input + " --text-column review");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_lines(r.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["text"], "great fun, great cast");
  EXPECT_EQ(rows[1]["text"], "a \"dull\" mess");
  EXPECT_EQ(rows[1]["label"], "neg");
}

TEST(ModelCommands, BadInputsExitTwoNamingThePlace) {
  TempDir dir;
  const auto model = train(dir);
  const auto bad_utf8 = dir.write("bad.txt", "fine\nbad \xff byte\n");
  auto r = run_assay(dir, "model predict --model lr:" + model + " --input " + bad_utf8);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(bad_utf8 + ":2:5: invalid UTF-8"));
  const auto tsv = dir.write("in.tsv", "a\tb\nx\ty\n");
  r = run_assay(dir,
                "model predict --model lr:" + model + " --input " + tsv + " --text-column text");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(tsv + ":1"));
  EXPECT_THAT(r.err, HasSubstr("text"));
  r = run_assay(dir, "model predict --model nope:x --input " + tsv);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown model spec 'nope:x'"));
  r = run_assay(dir, "model predict --model lr:" + model + " --input " + tsv + " --budget 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--budget needs --cache"));
  const auto no_label = dir.write("t.tsv", "text\nfoo\n");
  r = run_assay(dir, "model train-lr --train " + no_label + " --out " + dir.file("x.lr"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(no_label));
  EXPECT_THAT(r.err, HasSubstr("label"));
}

// Gold labels in another vocabulary than the model's (0/1 against neg/pos) are refused at
// their line, with no output, until --label-map names them; then each line carries its gold
// label and stderr the accuracy. train-lr reads TEXT<TAB>LABEL lines as well as tables.
TEST(ModelCommands, GoldLabelsMappedOrRefused) {
  TempDir dir;
  const auto no_header = dir.write("train.txt",
                                   "a \"good\" fun film\tpos\na bad dull film\tneg\n"
                                   "great fun , great cast\tpos\ndull mess , bad cast\tneg\n");
  auto r = run_assay(dir, "model train-lr --input-format tsv-no-header --train " + no_header +
                              " --out " + dir.file("nh.lr"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.file("nh.lr")), read_file(train(dir)));  // the same model as from TSV
  const auto gold = dir.write("gold.tsv", "text\tlabel\ngreat fun\t1\nbad mess\t0\n");
  const std::string base = "model predict --model lr:" + dir.file("nh.lr") + " --input " + gold +
                           " --text-column text --label-column label --out " + dir.file("p.jsonl");
  r = run_assay(dir, base);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(gold + ":2: the label '1' is not one of the model's labels "
                                      "(expected neg, pos"));
  EXPECT_THAT(r.err, HasSubstr("--label-map FILE_LABEL=neg"));
  EXPECT_FALSE(std::filesystem::exists(dir.file("p.jsonl")));
  r = run_assay(dir, base + " --label-map 0=neg,1=pos");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_lines(read_file(dir.file("p.jsonl")));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["gold"], "pos");
  EXPECT_EQ(rows[1]["gold"], "neg");
  EXPECT_THAT(r.err, HasSubstr("accuracy 100.00% (2 of 2 labelled inputs)"));
  r = run_assay(dir, base + " --label-map 0=neg,1=pos,1=neg");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("'1' is mapped twice"));
}

// Formats, columns and labels that do not fit are usage errors naming the options.
TEST(ModelCommands, InputFormatOptionsAreChecked) {
  TempDir dir;
  const auto model = train(dir);
  const auto sst2 = dir.write("dev.tsv", "sentence\tlabel\ngreat fun\t1\n");
  const std::string base = "model predict --model lr:" + model + " --input " + sst2;
  const std::vector<std::pair<std::string, std::string>> refused = {
      {" --input-format tsv",
       "--input-format tsv reads a header row: name the text column with --text-column"},
      {" --input-format TSV", "--input-format must be auto, lines, tsv, csv or tsv-no-header"},
      {" --input-format lines --text-column sentence", "--input-format lines has none"},
      {" --label-column label", "--label-column needs --text-column"},
      {" --text-column sentence --labels neg,,pos", "--labels 'neg,,pos': an empty label"},
  };
  for (const auto& [args, message] : refused) {
    const auto r = run_assay(dir, base + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, HasSubstr(message)) << args;
  }
  const auto r = run_assay(dir, base + " --text-column sentence");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(parse_lines(r.out).size(), 1u);  // the header is not a text
}

const std::string kFault =
    "'cmd:/usr/bin/python3 " + std::string(ASSAY_TEST_DATA_DIR) + "/models/fault_child.py ";

TEST(ModelCommands, CmdChildStderrIsPassedThroughWithAPrefix) {
  TempDir dir;
  const auto input = dir.write("in.txt", "one\ntwo\n");
  const auto r = run_assay(dir, "model predict --model " + kFault + "stderr' --input " + input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("[fault_child.py] working on 0\n"));
  EXPECT_THAT(r.err, HasSubstr("[fault_child.py] working on 1\n"));
  const auto rows = parse_lines(r.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1]["label"], "pos");
}

TEST(ModelCommands, CmdFaultsExitTwoNamingTheInputLine) {
  TempDir dir;
  const auto input = dir.write("in.txt", "a\nb\nc\nd\n");
  auto r = run_assay(dir, "model predict --model " + kFault + "wrong-len' --input " + input);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(input + ":3: cmd:/usr/bin/python3 "));
  EXPECT_THAT(r.err, HasSubstr("expected 2 scores (one per label), got 3"));
  r = run_assay(dir, "model predict --model " + kFault + "hang' --timeout 0.5 --input " + input);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(input + ":1: "));
  EXPECT_THAT(r.err, HasSubstr("no answer within 0.5"));
}

TEST(ModelCommands, CmdCrashingChildWithACacheLosesNothing) {
  TempDir dir;
  std::string lines;
  for (int i = 0; i < 12; ++i) lines += "text " + std::to_string(i) + "\n";
  const auto input = dir.write("in.txt", lines);
  const auto cache = dir.file("c.sqlite");
  auto r = run_assay(dir, "model predict --model " + kFault + "crash5' --input " + input +
                              " --cache " + cache + " --batch 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("restarting it (1 of at most 3)"));
  EXPECT_EQ(parse_lines(r.out).size(), 12u);
  r = run_assay(
      dir, "model predict --model " + kFault + "crash5' --input " + input + " --cache " + cache);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("12 inputs, 12 answered from"));
}

}  // namespace

namespace {

// The probe that docs/models.md gives for checking a `bert:` folder before a long run.
TEST(ModelCommands, BertProbeScoresARobertaFolderAndRefusesAnUnsupportedType) {
  TempDir dir;
  const std::string models = std::string(ASSAY_TEST_DATA_DIR) + "/models";
  const auto input = dir.write("probe.txt", "a great film\na dull film\n");
  auto r = run_assay(
      dir, "model predict --model bert:" + models + "/roberta_classifier --input " + input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_lines(r.out);
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(rows[0]["scores"].size(), 3u);
  TempDir other;
  other.write("config.json", R"({"model_type": "deberta-v2", "vocab_size": 5})");
  r = run_assay(dir, "model predict --model bert:" + other.path().string() + " --input " + input);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("model_type 'deberta-v2' is not supported"));
  EXPECT_TRUE(r.out.empty());
}

}  // namespace
