#include "core/number_parse.h"

#include <gtest/gtest.h>

namespace assay::core {
namespace {

TEST(NumberParse, StrictWholeField) {
  EXPECT_EQ(parse_double("1.5"), 1.5);
  EXPECT_EQ(parse_double(" -2e3 "), -2000.0);
  EXPECT_EQ(parse_double("+4"), 4.0);
  EXPECT_FALSE(parse_double("1.5x"));
  EXPECT_FALSE(parse_double(""));
  EXPECT_FALSE(parse_double("abc"));
  EXPECT_EQ(parse_int64("42"), 42);
  EXPECT_FALSE(parse_int64("4.2"));
  EXPECT_FALSE(parse_int64("99999999999999999999"));
}

}  // namespace
}  // namespace assay::core
