#include "models/label_map.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"

namespace assay::models {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(LabelMap, SeveralNamesMayStandForOneLabel) {
  const auto map = LabelMap::parse("NEGATIVE=neg,POSITIVE=pos,0=neg,1=pos");
  EXPECT_THAT(map.labels(), ElementsAre("neg", "pos"));
  EXPECT_EQ(map.resolve("0"), "neg");
  EXPECT_EQ(map.resolve("POSITIVE"), "pos");
  EXPECT_EQ(map.resolve("pos"), "pos");  // a name without an entry stands for itself
  EXPECT_EQ(map.entries().size(), 4u);
  EXPECT_TRUE(LabelMap::parse("").empty());
}

TEST(LabelMap, MalformedEntriesAreRefused) {
  for (const char* bad : {"0=neg,", "=neg", "0=", "neg", "0=neg,0=pos"}) {
    try {
      (void)LabelMap::parse(bad);
      ADD_FAILURE() << bad;
    } catch (const core::UsageError& e) {
      EXPECT_THAT(e.what(), HasSubstr(std::string("'") + bad + "'")) << bad;
    }
  }
}

}  // namespace
}  // namespace assay::models
