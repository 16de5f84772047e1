#include "text/sentence_splitter.h"

#include <gtest/gtest.h>

#include "text/lingua_tables.h"
#include "text/tokenizer.h"

namespace assay::text {
namespace {

std::vector<std::string> sentences(std::string_view text) {
  static const Tokenizer tokenizer(LinguaTables::load().abbreviations());
  const auto tokens = tokenizer.tokenize(text);
  std::vector<std::string> out;
  for (const Sentence& s : split_sentences(tokens)) {
    out.emplace_back(text.substr(s.begin, s.end - s.begin));
  }
  return out;
}

TEST(SentenceSplitter, SplitsAfterTerminatorsAndClosers) {
  EXPECT_EQ(sentences("Mr. Smith came. \"Why?!\" he asked.  Then (he left.) OK"),
            (std::vector<std::string>{"Mr. Smith came.", "\"Why?!\"", "he asked.",
                                      "Then (he left.)", "OK"}));
}

TEST(SentenceSplitter, CoversEveryTokenOnce) {
  const Tokenizer tokenizer;
  // "bc." keeps its period before a lower-case word (Lingua's rule), so "C" is capitalised.
  const auto tokens = tokenizer.tokenize("a bc. C d! e");
  const auto s = split_sentences(tokens);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].first_token, 0u);
  for (std::size_t i = 1; i < s.size(); ++i) EXPECT_EQ(s[i].first_token, s[i - 1].end_token);
  EXPECT_EQ(s.back().end_token, tokens.size());
  EXPECT_TRUE(split_sentences({}).empty());
}

}  // namespace
}  // namespace assay::text
