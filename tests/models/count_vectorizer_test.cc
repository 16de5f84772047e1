#include "models/count_vectorizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"

namespace {

using assay::models::CountVectorizer;
using ::testing::ElementsAre;

TEST(CountVectorizer, TokensAreRunsOfTwoOrMoreWordCharactersLowerCased) {
  // As scikit-learn: re.findall(r"(?u)\b\w\w+\b", text.lower()).
  EXPECT_THAT(CountVectorizer::tokenize("Hello, World! a I'm b_c 2x -- x9 _"),
              ElementsAre("hello", "world", "b_c", "2x", "x9"));
  EXPECT_THAT(CountVectorizer::tokenize("it's  the rock's \" conan \""),
              ElementsAre("it", "the", "rock", "conan"));
}

TEST(CountVectorizer, UnicodeLettersAndDigitsAreWordCharacters) {
  EXPECT_THAT(CountVectorizer::tokenize("Café ÉTÉ naïve—résumé ½x ١٢"),
              ElementsAre("café", "été", "naïve", "résumé", "½x", "١٢"));
  // Non-breaking space and punctuation separate; invalid UTF-8 bytes separate too.
  EXPECT_THAT(CountVectorizer::tokenize("ab\xC2\xA0"
                                        "cd\xFF"
                                        "ef"),
              ElementsAre("ab", "cd", "ef"));
}

TEST(CountVectorizer, FitSortsTheVocabularyAndTransformCounts) {
  CountVectorizer v;
  v.fit({"the cat and the hat", "A dog"});
  EXPECT_THAT(v.vocabulary(), ElementsAre("and", "cat", "dog", "hat", "the"));
  const auto row = v.transform("The THE cat zebra");
  ASSERT_EQ(row.size(), 2u);
  EXPECT_EQ(row[0].first, 1u);
  EXPECT_EQ(row[0].second, 1.0);
  EXPECT_EQ(row[1].first, 4u);
  EXPECT_EQ(row[1].second, 2.0);
  EXPECT_TRUE(v.transform("zebra").empty());
}

TEST(CountVectorizer, RejectsAnUnsortedVocabulary) {
  EXPECT_THROW(CountVectorizer({"b", "a"}), assay::core::Error);
  EXPECT_THROW(CountVectorizer({"a", "a"}), assay::core::Error);
  EXPECT_NO_THROW(CountVectorizer({"a", "b"}));
}

}  // namespace
