#include "text/text_edit.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "text/tokenizer.h"

namespace assay::text {
namespace {

TEST(TextEdit, ReplacesAndInsertsKeepingEverythingElse) {
  const std::string text = "The  actor,\tthen the ACTRESS!";
  const auto tokens = Tokenizer().tokenize(text);
  ASSERT_EQ(tokens[1].text, "actor");
  ASSERT_EQ(tokens[5].text, "ACTRESS");
  const std::string out =
      apply_edits(text, {replace_token(tokens[5], "ACTOR"), insert_before(tokens[1], "female "),
                         replace_token(tokens[1], "actress")});
  EXPECT_EQ(out, "The  female actress,\tthen the ACTOR!");
}

TEST(TextEdit, InsertionsAtTheSameOffsetKeepTheirOrder) {
  EXPECT_EQ(apply_edits("ab", {{1, 1, "x"}, {1, 1, "y"}}), "axyb");
  EXPECT_EQ(apply_edits("ab", {{2, 2, "!"}}), "ab!");
  EXPECT_EQ(apply_edits("ab", {{0, 2, ""}}), "");
}

TEST(TextEdit, OverlapIsRejected) {
  try {
    apply_edits("abcdef", {{1, 4, "x"}, {3, 5, "y"}});
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("overlap at byte 3"), std::string::npos) << e.what();
  }
}

TEST(TextEdit, OutOfRangeIsRejected) {
  try {
    apply_edits("abc", {{2, 9, "x"}});
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("outside the text of 3 bytes"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(apply_edits("abc", {{2, 1, "x"}}), core::UsageError);
}

}  // namespace
}  // namespace assay::text
