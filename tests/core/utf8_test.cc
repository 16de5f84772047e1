#include "core/utf8.h"

#include <gtest/gtest.h>

namespace assay::core {
namespace {

TEST(Utf8, FindsInvalidSequences) {
  EXPECT_FALSE(find_invalid_utf8("plain ascii"));
  EXPECT_FALSE(find_invalid_utf8("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80"));
  EXPECT_EQ(find_invalid_utf8("ab\xe9"), 2u);            // Latin-1 byte
  EXPECT_EQ(find_invalid_utf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(find_invalid_utf8("x\xed\xa0\x80"), 1u);     // surrogate
  EXPECT_EQ(find_invalid_utf8("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(find_invalid_utf8("ok\xe4\xb8"), 2u);        // truncated
}

TEST(Utf8, Latin1DecodingAndColumns) {
  EXPECT_EQ(latin1_to_utf8("caf\xe9"), "caf\xc3\xa9");
  EXPECT_EQ(utf8_column("\xc3\xa9tude", 2), 1u);
}

}  // namespace
}  // namespace assay::core
