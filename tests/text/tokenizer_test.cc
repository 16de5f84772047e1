#include "text/tokenizer.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/line_reader.h"
#include "golden_tags.h"
#include "support/shared_data.h"
#include "text/lingua_tables.h"
#include "text/pos_tagger.h"
#include "text/text_edit.h"

namespace assay::text {
namespace {

const Tokenizer& lingua_tokenizer() {
  static const Tokenizer t(LinguaTables::load().abbreviations());
  return t;
}

std::vector<std::string> texts(const std::vector<Token>& tokens) {
  std::vector<std::string> out;
  for (const Token& t : tokens) out.push_back(t.text);
  return out;
}

// Every token's span holds its text, except the normalised quotes and dashes.
void expect_spans_consistent(std::string_view text, const std::vector<Token>& tokens) {
  std::size_t prev_end = 0;
  for (const Token& t : tokens) {
    ASSERT_LE(prev_end, t.begin) << t.text;
    ASSERT_LT(t.begin, t.end) << t.text;
    ASSERT_LE(t.end, text.size());
    const std::string_view s = t.surface(text);
    if (t.text == "``" || t.text == "''") {
      EXPECT_EQ(s, "\"");
    } else if (t.text == "`" && s != "`") {
      EXPECT_EQ(s, "'");
    } else if (t.text == "-" && s != "-") {
      EXPECT_EQ(s.find_first_not_of('-'), std::string_view::npos) << s;
    } else {
      EXPECT_EQ(s, t.text);
    }
    prev_end = t.end;
  }
}

TEST(Tokenizer, MatchesPerlTokensOnHandcraftedSentences) {
  const auto lines = testing::read_lines(ASSAY_TEST_DATA_DIR "/text/tricky_sentences.txt", 1000);
  core::LineReader golden(ASSAY_TEST_DATA_DIR "/text/tricky_sentences.tokens");
  const PosTagger tagger;
  std::string_view line;
  for (const std::string& sentence : lines) {
    std::vector<std::string> ref_tokens, ref_tags;
    while (golden.next(line) && !line.empty()) {
      const std::size_t tab = line.find('\t');
      ASSERT_NE(tab, std::string_view::npos);
      ref_tokens.emplace_back(line.substr(0, tab));
      ref_tags.emplace_back(line.substr(tab + 1));
    }
    const TaggedText t = tagger.tag_text(sentence);
    EXPECT_EQ(texts(t.tokens), ref_tokens) << sentence;
    std::vector<std::string> tags;
    for (TagId id : t.tags) tags.emplace_back(tagger.tag_name(id));
    EXPECT_EQ(tags, ref_tags) << sentence;
    expect_spans_consistent(sentence, t.tokens);
  }
}

TEST(Tokenizer, OffsetsOfNormalisedTokens) {
  const std::string text = "He said \"don't\"--ok.";
  const auto tokens = lingua_tokenizer().tokenize(text);
  // The closing quote is followed by a word character, so Perl's rule makes it "``" too
  // (perl -MLingua::EN::Tagger -e 'print Lingua::EN::Tagger->new->add_tags(...)').
  ASSERT_EQ(texts(tokens),
            (std::vector<std::string>{"He", "said", "``", "do", "n't", "``", "-", "ok", "."}));
  EXPECT_EQ(tokens[2].begin, 8u);
  EXPECT_EQ(tokens[2].end, 9u);
  EXPECT_EQ(tokens[4].surface(text), "n't");
  EXPECT_EQ(tokens[6].surface(text), "--");
  EXPECT_EQ(tokens[8].begin, text.size() - 1);
  expect_spans_consistent(text, tokens);
}

TEST(Tokenizer, MultiByteOffsetsAreBytes) {
  const std::string text = "Zoë’s café, naïve.";
  const auto tokens = lingua_tokenizer().tokenize(text);
  ASSERT_GE(tokens.size(), 4u);
  EXPECT_EQ(tokens[0].surface(text), "Zoë’s");  // U+2019 is not an ASCII apostrophe
  EXPECT_EQ(tokens[1].surface(text), "café");
  expect_spans_consistent(text, tokens);
}

TEST(Tokenizer, RoundTripRebuildsUntouchedTextExactly) {
  ASSAY_REQUIRE_FILE(testing::kRtPolarityPos);
  const auto lines = testing::read_lines(testing::kRtPolarityPos, 1000);
  const auto tricky = testing::read_lines(ASSAY_TEST_DATA_DIR "/text/tricky_sentences.txt", 100);
  std::vector<std::string> all(lines);
  all.insert(all.end(), tricky.begin(), tricky.end());
  std::size_t n_checked = 0;
  for (const std::string& s : all) {
    const auto tokens = lingua_tokenizer().tokenize(s);
    // No edits: identity.
    EXPECT_EQ(apply_edits(s, {}), s);
    // Replacing every token by its own surface is the identity too.
    std::vector<TextEdit> same;
    for (const Token& t : tokens) same.push_back(replace_token(t, std::string(t.surface(s))));
    EXPECT_EQ(apply_edits(s, same), s);
    // Replacing one token changes exactly its bytes.
    for (std::size_t k = 0; k < tokens.size(); k += 3) {
      const std::string out = apply_edits(s, {replace_token(tokens[k], "XYZ")});
      EXPECT_EQ(out.substr(0, tokens[k].begin), s.substr(0, tokens[k].begin));
      EXPECT_EQ(out.substr(tokens[k].begin, 3), "XYZ");
      EXPECT_EQ(out.substr(tokens[k].begin + 3), s.substr(tokens[k].end));
      ++n_checked;
    }
    expect_spans_consistent(s, tokens);
  }
  EXPECT_GT(n_checked, 5000u);
}

TEST(Tokenizer, SplitsPeriodsUnlessAbbreviation) {
  const auto& t = lingua_tokenizer();
  EXPECT_EQ(texts(t.tokenize("Mr. Smith left. Then he came.")),
            (std::vector<std::string>{"Mr.", "Smith", "left", ".", "Then", "he", "came", "."}));
  EXPECT_EQ(texts(t.tokenize("the U.S. Army")), (std::vector<std::string>{"the", "U.S.", "Army"}));
  // Without the Lingua abbreviation lists "Mr." loses its period.
  EXPECT_EQ(texts(Tokenizer().tokenize("Mr. Smith")),
            (std::vector<std::string>{"Mr", ".", "Smith"}));
}

TEST(Tokenizer, DropsLongSymbolRunsButKeepsThemInTheText) {
  const std::string text = "wow ***!!!???*** ok";
  const auto tokens = lingua_tokenizer().tokenize(text);
  EXPECT_EQ(texts(tokens), (std::vector<std::string>{"wow", "ok"}));
  EXPECT_EQ(apply_edits(text, {replace_token(tokens[1], "fine")}), "wow ***!!!???*** fine");
}

TEST(Tokenizer, WhitespaceOnlyHasNoTokens) {
  EXPECT_TRUE(lingua_tokenizer().tokenize("").empty());
  EXPECT_TRUE(lingua_tokenizer().tokenize(" \t\u00a0 ").empty());
}

TEST(Tokenizer, InvalidUtf8NamesTheByte) {
  try {
    lingua_tokenizer().tokenize(
        "ab\xff"
        "cd");
    FAIL() << "no exception";
  } catch (const core::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid UTF-8 at byte 2"), std::string::npos) << e.what();
  }
}

TEST(Tokenizer, KeepsMarkupAsTokens) {
  // Deliberate difference from the Perl module, which strips HTML first: offsets must hold.
  const auto tokens = lingua_tokenizer().tokenize("a <b>bold</b> word");
  EXPECT_EQ(tokens.front().text, "a");
  EXPECT_EQ(tokens.back().text, "word");
  EXPECT_EQ(tokens.size(), 3u);
}

}  // namespace
}  // namespace assay::text
