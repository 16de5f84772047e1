#include "lm/wordpiece_tokenizer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::lm {
namespace {

const std::string kDir = std::string(ASSAY_TEST_DATA_DIR) + "/lm/bert";

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// tokenizer_goldens.json is written by tools/goldens/tiny_bert.py (a transcription of Hugging
// Face's BasicTokenizer + WordpieceTokenizer run under Python's unicodedata).
TEST(WordpieceTokenizer, MatchesGoldens) {
  const BertVocab vocab = BertVocab::load(kDir + "/vocab.txt");
  const WordpieceTokenizer tok(vocab);
  const BasicTokenizer basic({"[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"});
  const auto goldens = read_json(kDir + "/tokenizer_goldens.json");
  ASSERT_GE(goldens["cases"].size(), 20u);
  for (const auto& c : goldens["cases"]) {
    const std::string text = c["text"].get<std::string>();
    EXPECT_EQ(basic.tokenize(text), c["basic"].get<std::vector<std::string>>()) << text;
    EXPECT_EQ(tok.tokenize(text), c["wordpiece"].get<std::vector<std::string>>()) << text;
  }
}

// tokenizer_config.json's do_lower_case: false (a cased model) keeps case and accents;
// strip_accents: true strips them all the same.
TEST(WordpieceTokenizer, CasedVocabulary) {
  const std::string dir = std::string(ASSAY_TEST_DATA_DIR) + "/models/distilbert_classifier";
  const TokenizerConfig cased = TokenizerConfig::load(dir + "/tokenizer_config.json", {});
  EXPECT_FALSE(cased.lower_case);
  const BertVocab vocab = BertVocab::load(dir + "/vocab.txt", cased);
  const WordpieceTokenizer tok(vocab);
  EXPECT_EQ(tok.tokenize("Hello Café [MASK]"),
            (std::vector<std::string>{"Hello", "Café", "[MASK]"}));
  TokenizerConfig strip = cased;
  strip.strip_accents = true;
  const BertVocab stripped_vocab = BertVocab::load(dir + "/vocab.txt", strip);
  EXPECT_EQ(WordpieceTokenizer(stripped_vocab).tokenize("Hello Café"),
            (std::vector<std::string>{"Hello", "C", "##a", "##f", "##e"}));
  const BertVocab lowered = BertVocab::load(dir + "/vocab.txt");
  EXPECT_EQ(WordpieceTokenizer(lowered).tokenize("Hello Café"),
            (std::vector<std::string>{"hello", "cafe"}));
}

TEST(TokenizerConfig, SpecialTokensAsStringsOrObjectsAndBadTypes) {
  assay::testing::TempDir d;
  d.write("t.json", R"({"cls_token": {"content": "<s>", "lstrip": false}, "sep_token": "</s>",
                         "do_lower_case": null})");
  const TokenizerConfig c = TokenizerConfig::load(d.file("t.json"), {});
  EXPECT_EQ(c.specials.cls, "<s>");
  EXPECT_EQ(c.specials.sep, "</s>");
  EXPECT_EQ(c.specials.pad, "[PAD]");
  EXPECT_TRUE(c.lower_case);
  EXPECT_TRUE(TokenizerConfig::load(d.file("absent.json"), {}).lower_case);
  d.write("t.json", R"({"do_lower_case": "no"})");
  try {
    TokenizerConfig::load(d.file("t.json"), {});
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("'do_lower_case' must be true or false"),
              std::string::npos);
  }
}

TEST(WordpieceTokenizer, OverlongWordIsUnknownAndHundredIsNot) {
  const BertVocab vocab = BertVocab::load(kDir + "/vocab.txt");
  const WordpieceTokenizer tok(vocab);
  EXPECT_EQ(tok.tokenize(std::string(101, 'x')), std::vector<std::string>{"[UNK]"});
  EXPECT_EQ(tok.tokenize(std::string(100, 'x')).size(), 100u);
  // 101 code points of two bytes each are still 101 characters.
  std::string accented;
  for (int i = 0; i < 101; ++i) accented += "\xc3\xa9";  // é
  EXPECT_EQ(tok.tokenize(accented), std::vector<std::string>{"[UNK]"});
}

TEST(WordpieceTokenizer, InvalidUtf8BytesAreDropped) {
  const BertVocab vocab = BertVocab::load(kDir + "/vocab.txt");
  const WordpieceTokenizer tok(vocab);
  EXPECT_EQ(tok.tokenize("go\xff\xfeod \xc3"), (std::vector<std::string>{"good"}));
  EXPECT_TRUE(tok.tokenize(std::string("\x00\x01", 2)).empty());
}

TEST(WordpieceTokenizer, WrapAddsClsSepAndTruncates) {
  const BertVocab vocab = BertVocab::load(kDir + "/vocab.txt");
  const WordpieceTokenizer tok(vocab);
  const auto ids = tok.encode("the movie was good");
  ASSERT_EQ(ids.size(), 4u);
  const auto w = tok.wrap(ids, 4);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w.front(), vocab.cls_id());
  EXPECT_EQ(w[1], ids[0]);
  EXPECT_EQ(w[2], ids[1]);
  EXPECT_EQ(w.back(), vocab.sep_id());
}

TEST(BertVocab, EmptyLineIsAnError) {
  assay::testing::TempDir dir;
  const std::string p = dir.write("vocab.txt", "[PAD]\n[UNK]\n\n[CLS]\n");
  try {
    BertVocab::load(p);
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find(p + ":3: empty line in vocab.txt"), std::string::npos)
        << e.what();
  }
}

TEST(BertVocab, MissingSpecialTokenIsAnError) {
  assay::testing::TempDir dir;
  const std::string p = dir.write("vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\n");
  try {
    BertVocab::load(p);
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("lacks the special token [MASK]"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace assay::lm
