// `assay vectors analogy` and `assay vectors neighbors` end to end through the real binary.
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

const std::string kGlove =
    std::string(ASSAY_SHARED_DATA_DIR) + "/word-vectors/glove.twitter.27B.25d.subset.txt";

std::vector<nlohmann::json> parse_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(VectorsCommand, AnalogyKingQueen) {
  ASSAY_REQUIRE_FILE(kGlove);
  TempDir dir;
  const auto r =
      run_assay(dir, "vectors analogy --vectors " + kGlove +
                         " --vectors-format word2vec --a man --b king --c woman --top-k 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_lines(r.out);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0]["rank"], 1);
  EXPECT_EQ(rows[0]["a"], "man");
  std::vector<std::string> words;
  for (const auto& row : rows) words.push_back(row["word"]);
  EXPECT_THAT(words, ::testing::Contains("queen"));
  EXPECT_GE(rows[0]["similarity"].get<double>(), rows[4]["similarity"].get<double>());
}

TEST(VectorsCommand, NeighborsWithRestrictToFile) {
  ASSAY_REQUIRE_FILE(kGlove);
  TempDir dir;
  const auto out = dir.file("n.jsonl");
  const auto r = run_assay(
      dir, "vectors neighbors --vectors " + kGlove + " --word actor --restrict 2000 --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_lines(assay::testing::read_file(out));
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows[0]["query"], "actor");
}

TEST(VectorsCommand, BadInputsExitTwo) {
  ASSAY_REQUIRE_FILE(kGlove);
  TempDir dir;
  auto r =
      run_assay(dir, "vectors neighbors --vectors " + kGlove + " --vectors-format glove --word a");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(":1:1: this looks like a word2vec/fastText header"));

  r = run_assay(dir, "vectors neighbors --vectors " + kGlove + " --word zzqqx");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("word 'zzqqx' is not in the vocabulary"));

  r = run_assay(dir, "vectors neighbors --vectors " + kGlove + " --vectors-format bin --word a");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("expected glove, word2vec, word2vec-bin or fasttext"));

  const auto cut = dir.write("cut.txt", "3 2\na 1 2\nb 3 4\n");
  const auto out = dir.file("never.jsonl");
  r = run_assay(dir, "vectors analogy --vectors " + cut + " --a a --b b --c a --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("cut.txt:3: file ends after 2 of the 3 vectors"));
  EXPECT_FALSE(std::filesystem::exists(out));

  const auto bin = dir.write("short.bin", std::string("2 4\na ", 6));
  r = run_assay(dir,
                "vectors neighbors --vectors " + bin + " --vectors-format word2vec-bin --word a");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("short.bin at byte 4: the header declares 2 vectors"));
}

}  // namespace
