// `assay text tag` end to end.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/temp_dir.h"

namespace assay {
namespace {

using testing::run_assay;
using testing::TempDir;

TEST(TextTagCommand, WritesTokensOffsetsTagsAndLemmas) {
  TempDir dir;
  const std::string in = dir.write("in.txt", "The actresses weren't happy.\n\nShe ran.\n");
  const auto r = run_assay(dir, "text tag --input " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<nlohmann::json> rows;
  while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(rows.size(), 3u);
  const auto& first = rows[0];
  EXPECT_EQ(first["line"], 1);
  EXPECT_EQ(first["tokens"], nlohmann::json({"The", "actresses", "were", "n't", "happy", "."}));
  EXPECT_EQ(first["tags"], nlohmann::json({"det", "nns", "vbd", "rb", "jj", "pp"}));
  EXPECT_EQ(first["lemmas"][1], "actress");
  EXPECT_EQ(first["lemmas"][2], "be");
  EXPECT_EQ(first["offsets"][3], nlohmann::json({18, 21}));
  EXPECT_TRUE(rows[1]["tokens"].empty());
  EXPECT_EQ(rows[2]["lemmas"][1], "run");
}

TEST(TextTagCommand, TextFormatToFile) {
  TempDir dir;
  const std::string in = dir.write("in.txt", "She ran home.\n");
  const auto r = run_assay(
      dir, "text tag --format text --no-lemmas --input " + in + " --out " + dir.file("out.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(dir.file("out.txt")), "She/PRP ran/VBD home/NN ./PP\n");
}

TEST(TextTagCommand, InvalidUtf8IsExit2WithLineAndNoOutputFile) {
  TempDir dir;
  const std::string in = dir.write("in.txt", "fine\nbad \xff byte\n");
  const auto r = run_assay(dir, "text tag --input " + in + " --out " + dir.file("out.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("in.txt:2:5: invalid UTF-8 (byte 0xFF)"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.jsonl")));
}

TEST(TextTagCommand, MissingTaggerTablesNameThePackage) {
  TempDir dir;
  const std::string in = dir.write("in.txt", "x\n");
  const auto r = run_assay(dir, "text tag --input " + in + " --tagger-dir " + dir.file("none"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("liblingua-en-tagger-perl"), std::string::npos) << r.err;
}

TEST(TextTagCommand, MissingWordNetNamesThePackage) {
  TempDir dir;
  const std::string in = dir.write("in.txt", "x\n");
  const auto r = run_assay(dir, "text tag --input " + in + " --wordnet-dir " + dir.file("none"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("wordnet-base"), std::string::npos) << r.err;
}

TEST(TextTagCommand, BadFormatIsAUsageError) {
  TempDir dir;
  const std::string in = dir.write("in.txt", "x\n");
  const auto r = run_assay(dir, "text tag --format xml --input " + in);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format must be 'jsonl' or 'text'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace assay
