#include "core/fields.h"

#include <gtest/gtest.h>

namespace {

using assay::core::Field;
using assay::core::split_fields;

TEST(SplitFields, SpacesAndTabsSeparateAndColumnsAreOneBased) {
  std::vector<Field> f;
  split_fields("  -1.5\tthe  cat\t", f);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].text, "-1.5");
  EXPECT_EQ(f[0].column, 3u);
  EXPECT_EQ(f[1].text, "the");
  EXPECT_EQ(f[1].column, 8u);
  EXPECT_EQ(f[2].text, "cat");
  EXPECT_EQ(f[2].column, 13u);
}

TEST(SplitFields, BlankLinesHaveNoFieldsAndOldFieldsAreCleared) {
  std::vector<Field> f;
  split_fields("a b", f);
  split_fields(" \t ", f);
  EXPECT_TRUE(f.empty());
  split_fields("", f);
  EXPECT_TRUE(f.empty());
}

}  // namespace
