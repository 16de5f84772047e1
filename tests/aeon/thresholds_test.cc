#include "aeon/thresholds.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"

namespace assay::aeon {
namespace {

TEST(Thresholds, PaperValues) {
  EXPECT_DOUBLE_EQ(thresholds_for_task("sa").sim, 0.87);
  EXPECT_DOUBLE_EQ(thresholds_for_task("nli").sim, 0.90);
  EXPECT_DOUBLE_EQ(thresholds_for_task("se").sim, 0.91);
  EXPECT_DOUBLE_EQ(thresholds_for_task("se").nat, 0.21);
  try {
    thresholds_for_task("qa");
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown task 'qa'"), std::string::npos);
  }
}

TEST(Thresholds, Judge) {
  const QualityThresholds t{0.87, 0.21};
  EXPECT_TRUE(judge(0.87, 0.21, t).keep);
  const auto v = judge(0.5, 0.1, t);
  EXPECT_FALSE(v.keep);
  EXPECT_EQ(v.reason, "SemEval 0.500 < 0.87; SynEval 0.100 < 0.21");
  EXPECT_EQ(judge(0.9, 0.2, t).reason, "SynEval 0.200 < 0.21");
  EXPECT_FALSE(judge(std::nan(""), 0.5, t).keep);
}

TEST(Thresholds, DropWarningOnlyAboveNinetyPercent) {
  const QualityThresholds t{0.87, 0.21};
  EXPECT_EQ(drop_warning("the aeon gate", 9, 10, "perturbations", t, "offline", "x"), "");
  EXPECT_EQ(drop_warning("the aeon gate", 0, 0, "perturbations", t, "offline", "x"), "");
  EXPECT_EQ(drop_warning("the aeon gate", 91, 100, "perturbations", t, "offline", "set y"),
            "warning: the aeon gate dropped 91 of 100 perturbations (91%); its thresholds "
            "(SemEval >= 0.87, SynEval >= 0.21) may not suit the offline scores: set y");
}

}  // namespace
}  // namespace assay::aeon
