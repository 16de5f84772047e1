#include "core/jsonl.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "support/temp_dir.h"

namespace assay::core {
namespace {

TEST(Jsonl, RoundTripSkipsBlankLines) {
  std::ostringstream out;
  write_jsonl(out, {{"b", 1}, {"a", "x"}});
  write_jsonl(out, {{"c", 2.5}});
  EXPECT_EQ(out.str(), "{\"b\":1,\"a\":\"x\"}\n{\"c\":2.5}\n");
  assay::testing::TempDir dir;
  JsonlReader r(dir.write("a.jsonl", out.str() + "\n  \n"));
  nlohmann::json v;
  ASSERT_TRUE(r.next(v));
  EXPECT_EQ(v["a"], "x");
  ASSERT_TRUE(r.next(v));
  EXPECT_EQ(v["c"], 2.5);
  EXPECT_FALSE(r.next(v));
}

TEST(Jsonl, MalformedLineNamesLineAndColumn) {
  assay::testing::TempDir dir;
  JsonlReader r(dir.write("b.jsonl", "{\"a\":1}\n{\"a\":}\n"));
  nlohmann::json v;
  ASSERT_TRUE(r.next(v));
  try {
    r.next(v);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("b.jsonl:2:6: expected one JSON value per line"));
  }
  EXPECT_THROW(require_key(nlohmann::json::object(), "text", SourceLocation{"f", 3}), ParseError);
}

TEST(Jsonl, NumberOverflowIsAParseErrorWithTheLine) {
  assay::testing::TempDir dir;
  JsonlReader r(dir.write("c.jsonl", "{\"a\":1}\n{\"a\":1e999999}\n"));
  nlohmann::json v;
  ASSERT_TRUE(r.next(v));
  try {
    r.next(v);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("c.jsonl:2: expected one JSON value per line"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("number overflow"));
  }
}

}  // namespace
}  // namespace assay::core
