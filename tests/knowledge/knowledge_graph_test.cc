#include "knowledge/knowledge_graph.h"

#include <gtest/gtest.h>

namespace assay::knowledge {
namespace {

TEST(NormalizeTerm, LowercasesAndJoinsWithUnderscores) {
  EXPECT_EQ(normalize_term("Ice Cream"), "ice_cream");
  EXPECT_EQ(normalize_term("  ice   cream "), "ice_cream");
  EXPECT_EQ(normalize_term("ice_cream"), "ice_cream");
  EXPECT_EQ(normalize_term("POLICEWOMAN"), "policewoman");
  EXPECT_EQ(normalize_term(""), "");
}

}  // namespace
}  // namespace assay::knowledge
