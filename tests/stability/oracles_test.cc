#include "stability/oracles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.h"

namespace assay::stability {
namespace {

using List = std::vector<recsys::ItemId>;

TEST(Oracles, ReversedListOfThree) {
  const List a{1, 2, 3}, b{3, 2, 1};
  EXPECT_EQ(top_out(a, b), 0.0);
  EXPECT_EQ(jaccard_distance(a, b), 0.0);
  // AO = (0/1 + 1/2 + 3/3) / 3 = 0.5.
  EXPECT_DOUBLE_EQ(average_overlap_distance(a, b), 0.5);
  // RBO_ext = 1·0.9^3 + (0.1/0.9)·(0·0.9 + 0.5·0.81 + 1·0.729) = 0.855.
  EXPECT_NEAR(rbo_distance(a, b), 1 - 0.855, 1e-12);
}

TEST(Oracles, PartialOverlapOfFour) {
  const List a{1, 2, 3, 4}, b{5, 1, 6, 2};
  EXPECT_EQ(top_out(a, b), 0.0);
  EXPECT_EQ(top_out(a, List{5, 6, 7, 8}), 1.0);
  EXPECT_DOUBLE_EQ(jaccard_distance(a, b), 1.0 - 2.0 / 6.0);
  // X_d = 0, 1, 1, 2: AO = (0 + 1/2 + 1/3 + 2/4) / 4.
  EXPECT_NEAR(average_overlap_distance(a, b), 1 - (0.5 + 1.0 / 3 + 0.5) / 4, 1e-12);
  const double rbo = 0.5 * 0.6561 + (0.1 / 0.9) * (0.5 * 0.81 + (1.0 / 3) * 0.729 + 0.5 * 0.6561);
  EXPECT_NEAR(rbo_distance(a, b), 1 - rbo, 1e-12);
}

TEST(Oracles, IdenticalListsAreDistanceZero) {
  const List a{7, 3, 9, 1, 0, 4, 8, 2, 6, 5};
  for (const Oracle o : kAllOracles) EXPECT_NEAR(distance(o, a, a), 0.0, 1e-12) << to_string(o);
}

TEST(Oracles, DisjointListsAreDistanceOne) {
  const List a{1, 2, 3}, b{4, 5, 6};
  for (const Oracle o : kAllOracles) EXPECT_NEAR(distance(o, a, b), 1.0, 1e-12) << to_string(o);
}

TEST(Oracles, UnequalLengthsAndEmptyLists) {
  const List a{1, 2}, b{1};
  EXPECT_EQ(top_out(a, b), 0.0);
  EXPECT_DOUBLE_EQ(jaccard_distance(a, b), 0.5);
  // k = 2: X_1 = 1, X_2 = 1 -> AO = (1 + 1/2) / 2.
  EXPECT_DOUBLE_EQ(average_overlap_distance(a, b), 0.25);
  for (const Oracle o : kAllOracles) EXPECT_EQ(distance(o, List{}, List{}), 0.0);
  EXPECT_EQ(top_out(List{}, a), 0.0);
  EXPECT_EQ(top_out(a, List{}), 1.0);
  EXPECT_EQ(jaccard_distance(a, List{}), 1.0);
}

TEST(Oracles, MeanOverUsers) {
  const recsys::TopKLists before{{1, 2}, {3, 4}, {5, 6}, {}};
  const recsys::TopKLists after{{1, 2}, {4, 9}, {8, 9}, {}};
  // Top Out: user 1 lost item 3, user 2 lost item 5 -> 2/4.
  EXPECT_DOUBLE_EQ(mean_distance(Oracle::kTopOut, before, after), 0.5);
  // Jaccard: 0, 1 - 1/3, 1, 0.
  EXPECT_DOUBLE_EQ(mean_distance(Oracle::kJaccard, before, after), (2.0 / 3 + 1) / 4);
  const auto all = mean_distances(before, after);
  EXPECT_DOUBLE_EQ(all[0], 0.5);
  EXPECT_TRUE(std::isnan(mean_distance(Oracle::kAod, {}, {})));
}

TEST(Oracles, NamesRoundTripAndUnknownIsUsageError) {
  for (const Oracle o : kAllOracles) EXPECT_EQ(parse_oracle(to_string(o)), o);
  try {
    parse_oracle("kendall");
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("kendall"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("top-out"), std::string::npos);
  }
}

}  // namespace
}  // namespace assay::stability
