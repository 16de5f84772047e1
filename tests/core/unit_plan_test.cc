#include "core/unit_plan.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace assay::core {
namespace {

// Values from an independent implementation (FNV-1a 64 and rng.h's derive_seed written in
// Python): stores and saved sets record these seeds, so they must never change.
TEST(UnitPlan, KeyHashAndSeedAreFixedByDefinition) {
  EXPECT_EQ(key_hash(""), 1469598103934665603ull);
  EXPECT_EQ(key_hash("a"), 4953267810257967366ull);
  EXPECT_EQ(key_hash("user-user|AMR|10|3"), 1884360853549675456ull);
  EXPECT_EQ(unit_seed(0, "user-user|AMR|10|3"), 10155644561041216916ull);
  EXPECT_EQ(unit_seed(9, "noise|funk-svd|0"), 6718197287269889352ull);
}

TEST(UnitPlan, SeedDependsOnKeyAndRunSeedOnlyNotOnThePlan) {
  UnitPlan small(9), large(9), other_seed(10);
  small.add("b");
  for (const char* k : {"z", "a", "b", "c"}) large.add(k);
  other_seed.add("b");
  EXPECT_EQ(small[small.find("b")].seed, large[large.find("b")].seed);
  EXPECT_EQ(small[0].seed, unit_seed(9, "b"));
  EXPECT_NE(small[0].seed, other_seed[0].seed);
  EXPECT_NE(large[large.find("a")].seed, large[large.find("c")].seed);
}

TEST(UnitPlan, SlotsDefaultToPositionAndCanBeGiven) {
  UnitPlan plan(1);
  plan.add("x");
  plan.add("y");
  plan.add("z", 0);
  EXPECT_EQ(plan[0].slot, 0u);
  EXPECT_EQ(plan[1].slot, 1u);
  EXPECT_EQ(plan[2].slot, 0u);
  EXPECT_EQ(plan.find("y"), 1u);
  EXPECT_EQ(plan.find("nope"), plan.size());
}

TEST(UnitPlan, DuplicateKeyIsUsageErrorNamingIt) {
  UnitPlan plan(1);
  plan.add("cell|3");
  try {
    plan.add("cell|3");
    FAIL() << "duplicate accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cell|3"), std::string::npos) << e.what();
  }
  EXPECT_EQ(plan.size(), 1u);
}

}  // namespace
}  // namespace assay::core
