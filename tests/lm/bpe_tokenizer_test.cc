// Byte-level BPE against tokenizer_goldens.json, written by tools/goldens/models_hf_encoders.py
// (GPT-2's encoder.py algorithm with the pre-tokenisation pattern run by Python's `regex`).
#include "lm/bpe_tokenizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::lm {
namespace {

using ::testing::HasSubstr;

const std::string kDir = std::string(ASSAY_TEST_DATA_DIR) + "/models/roberta_classifier";
const std::string kJson =
    std::string(ASSAY_TEST_DATA_DIR) + "/models/roberta_tokenizer_json/tokenizer.json";

TokenizerConfig roberta_config() {
  TokenizerConfig c;
  c.specials = SpecialTokens::roberta();
  return c;
}

BpeTokenizer from_files() {
  return BpeTokenizer::load(kDir + "/vocab.json", kDir + "/merges.txt", roberta_config());
}

nlohmann::json goldens() {
  std::ifstream in(kDir + "/tokenizer_goldens.json");
  return nlohmann::json::parse(in);
}

TEST(BpeTokenizer, MatchesGoldensFromBothFileForms) {
  const auto g = goldens();
  ASSERT_GE(g["cases"].size(), 15u);
  const BpeTokenizer files = from_files();
  const BpeTokenizer json = BpeTokenizer::load_tokenizer_json(kJson, roberta_config());
  for (const auto& c : g["cases"]) {
    const std::string text = c["text"].get<std::string>();
    const auto pieces = c["pieces"].get<std::vector<std::string>>();
    const auto ids = c["ids"].get<std::vector<std::int32_t>>();
    EXPECT_EQ(files.tokenize(text), pieces) << text;
    EXPECT_EQ(files.encode(text), ids) << text;
    EXPECT_EQ(json.encode(text), ids) << text;
  }
}

TEST(BpeTokenizer, WrapsWithTheConfiguredSpecials) {
  const BpeTokenizer t = from_files();
  EXPECT_EQ(t.cls_id(), 0);
  EXPECT_EQ(t.pad_id(), 1);
  EXPECT_EQ(t.sep_id(), 2);
  EXPECT_EQ(t.wrap({7, 8, 9}, 4), (std::vector<std::int32_t>{0, 7, 8, 2}));
  EXPECT_EQ(t.wrap({7, 8, 9}, 64), (std::vector<std::int32_t>{0, 7, 8, 9, 2}));
}

TEST(BpeTokenizer, PrefixSpaceMakesTheFirstWordLikeTheOthers) {
  TokenizerConfig c = roberta_config();
  c.add_prefix_space = true;
  const BpeTokenizer prefixed = BpeTokenizer::load(kDir + "/vocab.json", kDir + "/merges.txt", c);
  const BpeTokenizer plain = from_files();
  EXPECT_EQ(prefixed.encode("Hello world"), plain.encode(" Hello world"));
  EXPECT_NE(prefixed.encode("Hello world"), plain.encode("Hello world"));
  EXPECT_EQ(prefixed.encode(" Hello"), plain.encode(" Hello"));  // already has one
  EXPECT_TRUE(prefixed.encode("").empty());
}

TEST(BpeTokenizer, EveryByteStringIsAccepted) {
  const BpeTokenizer t = from_files();
  // Invalid UTF-8 keeps its bytes: "\xff" is the byte symbol "ÿ", "\xc3" alone is "Ã".
  const auto pieces = t.tokenize("go\xff od \xc3");
  std::string joined;
  for (const auto& p : pieces) joined += p;
  EXPECT_EQ(joined, "go\xc3\xbf\xc4\xa0od\xc4\xa0\xc3\x83");
}

TEST(BpeTokenizer, BadFilesAreNamed) {
  assay::testing::TempDir d;
  d.write("merges.txt", "#version: 0.2\nĠ t\nbad\n");
  try {
    BpeTokenizer::load(kDir + "/vocab.json", d.file("merges.txt"), roberta_config());
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("merges.txt:3"));
    EXPECT_THAT(e.what(), HasSubstr("two symbols separated by one space"));
  }
  d.write("vocab.json", "{\"<s>\": 0, \"<pad>\": 0}");
  try {
    BpeTokenizer::load(d.file("vocab.json"), kDir + "/merges.txt", roberta_config());
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is given to another token too"));
  }
  d.write("vocab.json", "{\"<s>\": 0, \"<pad>\": 1, \"</s>\": 2}");
  try {
    BpeTokenizer::load(d.file("vocab.json"), kDir + "/merges.txt", roberta_config());
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("lacks the special token <unk>"));
  }
  d.write("tokenizer.json", R"({"model": {"type": "WordPiece", "vocab": {}}})");
  try {
    BpeTokenizer::load_tokenizer_json(d.file("tokenizer.json"), roberta_config());
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("model type \"WordPiece\" is not supported"));
  }
}

}  // namespace
}  // namespace assay::lm
