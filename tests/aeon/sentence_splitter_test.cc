#include "aeon/sentence_splitter.h"

#include <gtest/gtest.h>

namespace assay::aeon {
namespace {

using V = std::vector<std::string>;

TEST(SentenceSplitter, SplitsOnTerminalPunctuation) {
  EXPECT_EQ(split_sentences("It was good. Really! Was it?  Yes"), (V{"It was good.", "Really!", "Was it?", "Yes"}));
  EXPECT_EQ(split_sentences("skip it . joyfully , you still have that option ."),
            (V{"skip it .", "joyfully , you still have that option ."}));
  EXPECT_EQ(split_sentences("He said \"stop.\" Then left."), (V{"He said \"stop.\"", "Then left."}));
}

TEST(SentenceSplitter, KeepsAbbreviationsNumbersAndInitials) {
  EXPECT_EQ(split_sentences("Mr. Smith paid $3.50 to J. Doe, e.g. twice."),
            (V{"Mr. Smith paid $3.50 to J. Doe, e.g. twice."}));
  EXPECT_EQ(split_sentences("wait... what?!"), (V{"wait...", "what?!"}));
}

TEST(SentenceSplitter, LinesAndBlanks) {
  EXPECT_EQ(split_sentences("one\ntwo\n\n"), (V{"one", "two"}));
  EXPECT_TRUE(split_sentences("   ").empty());
  EXPECT_TRUE(split_sentences("").empty());
}

TEST(SentenceSplitter, StripsMutationMarkers) {
  EXPECT_EQ(strip_mutation_markers("a [[joyfully]] , b"), "a joyfully , b");
  EXPECT_EQ(strip_mutation_markers("[[[[Premise]]]]: x"), "Premise: x");
  EXPECT_EQ(strip_mutation_markers("[a] b]"), "[a] b]");
}

}  // namespace
}  // namespace assay::aeon
