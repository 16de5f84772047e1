#include "core/error.h"

#include <gtest/gtest.h>

#include "core/check.h"
#include "core/excerpt.h"

namespace assay::core {
namespace {

TEST(Error, EscapeControlKeepsTextAndEscapesTerminalControls) {
  EXPECT_EQ(escape_control("plain text, tab\tand newline\n"), "plain text, tab\tand newline\n");
  EXPECT_EQ(escape_control("a\x1b[2Jb\x07\r\x7f"), "a\\x1b[2Jb\\x07\\x0d\\x7f");
  EXPECT_EQ(escape_control("\xc2\x9b"
                           "31m caf\xc3\xa9"),
            "\\u009b31m caf\xc3\xa9");
  EXPECT_EQ(escape_control(std::string("nul\0x", 5)), "nul\\x00x");
}

TEST(Error, LocationAndContextAccumulate) {
  ParseError e(SourceLocation{"ratings.csv", 1204, 0, std::nullopt}, "expected 4 columns, got 3");
  EXPECT_STREQ(e.what(), "ratings.csv:1204: expected 4 columns, got 3");
  e.add_context("while loading MovieLens");
  EXPECT_STREQ(e.what(), "ratings.csv:1204: expected 4 columns, got 3 (while loading MovieLens)");
  EXPECT_EQ(e.detail(), "expected 4 columns, got 3");
}

TEST(Error, ByteOffsetsAndMissingPaths) {
  Error e(SourceLocation{"", 0, 0, 17}, "truncated");
  e.set_location_if_missing(SourceLocation{"model.safetensors"});
  EXPECT_STREQ(e.what(), "model.safetensors at byte 17: truncated");
  Error plain("no location");
  EXPECT_STREQ(plain.what(), "no location");
  SourceLocation col{"a.csv", 3, 9, std::nullopt};
  EXPECT_EQ(col.to_string(), "a.csv:3:9");
}

TEST(Error, ContextSurvivesRethrow) {
  try {
    try {
      throw ParseError(SourceLocation{"x.csv", 2}, "bad");
    } catch (Error& e) {
      e.add_context("column 'score'");
      throw;
    }
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "x.csv:2: bad (column 'score')");
  }
}

TEST(CheckDeathTest, AbortsWithCodeLocation) {
  EXPECT_DEATH(ASSAY_CHECK_MSG(1 + 1 == 3, "arithmetic"), "check failed: 1 \\+ 1 == 3: arithmetic");
}

}  // namespace
}  // namespace assay::core
