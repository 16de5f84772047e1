#include "fairness/fairness_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using ::testing::HasSubstr;

TEST(FairnessInput, LinesKeepEmptyLines) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.txt", "The actor left.\n\nA man.\n");
  const auto r = read_inputs(p, {});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1].text, "");
  EXPECT_EQ(r[1].line, 2u);
  EXPECT_FALSE(r[0].label.has_value());
}

TEST(FairnessInput, TsvLabelIsTheLastField) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.tsv", "good\tfilm\t1\nbad film\t0");
  InputOptions o;
  o.format = InputFormat::kTsv;
  const auto r = read_inputs(p, o);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].text, "good\tfilm");
  EXPECT_EQ(*r[0].label, "1");
  EXPECT_EQ(*r[1].label, "0");
  const auto bad = dir.write("bad.tsv", "ok\t1\nno label here\n");
  try {
    read_inputs(bad, o);
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad.tsv:2"));
  }
}

TEST(FairnessInput, CsvTextColumn) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.csv", "id,review,y\n1,\"The actor, sadly, left.\",0\n2,,1\n");
  InputOptions o;
  o.format = InputFormat::kCsv;
  o.text_column = "review";
  o.label_column = std::string("y");  // (a literal here trips GCC 12 -Wrestrict at -O3)
  const auto r = read_inputs(p, o);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].text, "The actor, sadly, left.");
  EXPECT_EQ(r[1].text, "");
  EXPECT_EQ(*r[1].label, "1");
  o.text_column = "text";
  EXPECT_THROW(read_inputs(p, o), core::ParseError);
}

TEST(FairnessInput, InvalidUtf8AndHugeLinesNameTheLine) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.txt", "fine\nbad \xc3\x28 byte\n");
  try {
    read_inputs(p, {});
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("in.txt:2:5"));
    EXPECT_THAT(e.what(), HasSubstr("invalid UTF-8"));
  }
  const auto big = dir.write("big.txt", "ok\n" + std::string(10 << 20, 'a') + "\n");
  try {
    read_inputs(big, {});
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("big.txt:2"));
    EXPECT_THAT(e.what(), HasSubstr("longer than the limit"));
  }
}

}  // namespace
}  // namespace assay::fairness
