// The fairness commands' inputs are the records of models::read_text_records (its formats are
// tested in tests/models/text_input_test.cc), each with its line and label.
#include "fairness/fairness_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using ::testing::HasSubstr;

TEST(FairnessInput, TableRecordsKeepTheirLineAndLabel) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.csv", "id,review,y\n1,\"The actor,\nsadly, left.\",0\n2,,1\n");
  models::TextInputOptions o;
  o.text_column = "review";
  o.label_column = std::string("y");  // (a literal here trips GCC 12 -Wrestrict at -O3)
  const auto r = read_inputs(p, o);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].text, "The actor,\nsadly, left.");
  EXPECT_EQ(r[0].line, 2u);
  EXPECT_EQ(r[1].line, 4u);  // the record after the one spanning two lines
  EXPECT_EQ(*r[1].label, "1");
  o.text_column = "text";
  try {
    read_inputs(p, o);
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("in.csv:1"));
  }
}

}  // namespace
}  // namespace assay::fairness
