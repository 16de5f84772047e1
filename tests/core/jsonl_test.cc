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

// The message of the ParseError thrown by the second record of `content`.
std::string second_record_error(const std::string& name, const std::string& content) {
  assay::testing::TempDir dir;
  JsonlReader r(dir.write(name, content));
  nlohmann::json v;
  EXPECT_TRUE(r.next(v));
  try {
    r.next(v);
  } catch (const ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ParseError";
  return "";
}

TEST(Jsonl, MalformedLineNamesLineAndColumn) {
  EXPECT_THAT(second_record_error("b.jsonl", "{\"a\":1}\n{\"a\":}\n"),
              ::testing::HasSubstr("b.jsonl:2:6: expected one JSON value per line"));
  EXPECT_THROW(require_key(nlohmann::json::object(), "text", SourceLocation{"f", 3}), ParseError);
}

TEST(Jsonl, NumberOverflowIsAParseErrorWithTheLine) {
  const std::string msg = second_record_error("c.jsonl", "{\"a\":1}\n{\"a\":1e999999}\n");
  EXPECT_THAT(msg, ::testing::HasSubstr("c.jsonl:2: expected one JSON value per line"));
  EXPECT_THAT(msg, ::testing::HasSubstr("number overflow"));
}

}  // namespace
}  // namespace assay::core
