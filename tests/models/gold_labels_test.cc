#include "models/gold_labels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace assay::models {
namespace {

using ::testing::HasSubstr;

TEST(GoldLabels, FileLabelsThroughTheMap) {
  const GoldLabels gold({"neg", "pos"}, LabelMap::parse("0=neg,1=pos"));
  const core::SourceLocation at("dev.tsv", 7);
  EXPECT_EQ(gold.index("0", at), 0u);
  EXPECT_EQ(gold.index("1", at), 1u);
  EXPECT_EQ(gold.index("pos", at), 1u);  // the model's own names need no entry
}

TEST(GoldLabels, AnUnknownLabelIsRefusedAtItsLine) {
  const GoldLabels gold({"neg", "pos"}, {});
  try {
    (void)gold.index("0", core::SourceLocation("dev.tsv", 7));
    FAIL();
  } catch (const core::ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("dev.tsv:7"));
    EXPECT_THAT(e.what(), HasSubstr("'0'"));
    EXPECT_THAT(e.what(), HasSubstr("expected neg, pos"));
  }
}

TEST(GoldLabels, AMapToALabelTheModelLacksIsRefused) {
  try {
    GoldLabels gold({"0", "1"}, LabelMap::parse("0=neg"));
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'neg', which is not a label of the model (0, 1)"));
  }
}

}  // namespace
}  // namespace assay::models
