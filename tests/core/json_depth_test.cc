#include "core/json_depth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "core/json_file.h"
#include "core/jsonl.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::testing::HasSubstr;

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}

TEST(JsonDepth, CountsArraysAndObjectsOutsideStrings) {
  EXPECT_FALSE(json_nests_deeper(nested(64)));
  EXPECT_TRUE(json_nests_deeper(nested(65)));
  EXPECT_FALSE(json_nests_deeper("{\"a\": {\"b\": [1, {\"c\": []}]}}", 5));  // five levels
  EXPECT_TRUE(json_nests_deeper("{\"a\": {\"b\": [1, {\"c\": []}]}}", 4));
  // Brackets inside strings, escaped quotes included, do not count.
  EXPECT_FALSE(
      json_nests_deeper("[\"" + std::string(100, '[') + "\\\"" + std::string(100, '{') + "\"]"));
  // Siblings are not nesting.
  std::string siblings = "[";
  for (int i = 0; i < 1000; ++i) siblings += "[1],";
  EXPECT_FALSE(json_nests_deeper(siblings + "[]]"));
}

// A file or a JSON-lines record 100,000 levels deep is refused with its place, not parsed.
TEST(JsonDepth, FilesDeeperThanTheLimitAreRefused) {
  assay::testing::TempDir dir;
  const auto file = dir.write("deep.json", nested(100000));
  try {
    read_json_file(file);
    FAIL() << "a 100,000-deep document was read";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("deep.json"));
    EXPECT_THAT(e.what(), HasSubstr("deeper than 64 levels"));
  }
  JsonlReader r(dir.write("deep.jsonl", "{\"a\": 1}\n" + nested(100000) + "\n"));
  nlohmann::json v;
  ASSERT_TRUE(r.next(v));
  try {
    r.next(v);
    FAIL() << "a 100,000-deep line was read";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("deep.jsonl:2"));
    EXPECT_THAT(e.what(), HasSubstr("deeper than 64 levels"));
  }
}

}  // namespace
}  // namespace assay::core
