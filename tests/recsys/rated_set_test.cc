// RatedSet: the bit matrix and the branch-free search (used for data too large for the
// matrix) give the definition's answer for every (user, item), and contains_sorted handles
// the edges of a row.
#include "recsys/rated_set.h"

#include <gtest/gtest.h>

#include "test_data.h"

namespace {

using namespace assay::recsys;

TEST(RatedSet, BitMatrixAndSearchAgreeWithTheRatings) {
  const Ratings r = fixtures::small_synthetic(2);
  const RatedSet matrix(r);
  const RatedSet search(r, /*max_bits=*/0);
  ASSERT_TRUE(matrix.uses_bit_matrix());
  ASSERT_FALSE(search.uses_bit_matrix());
  std::size_t rated = 0;
  for (UserId u = 0; u < r.n_users(); ++u) {
    for (ItemId i = 0; i < r.n_items(); ++i) {
      const bool truth = r.rating(u, i).has_value();
      ASSERT_EQ(matrix.contains(u, i), truth) << u << " " << i;
      ASSERT_EQ(search.contains(u, i), truth) << u << " " << i;
      rated += truth;
    }
  }
  EXPECT_EQ(rated, r.n_ratings());
}

TEST(RatedSet, ContainsSortedEdges) {
  const std::vector<ItemId> row = {2, 5, 9};
  EXPECT_FALSE(contains_sorted(row.data(), 0, 2));
  EXPECT_TRUE(contains_sorted(row.data(), 1, 2));
  EXPECT_FALSE(contains_sorted(row.data(), 1, 5));
  for (ItemId x = 0; x < 12; ++x) {
    EXPECT_EQ(contains_sorted(row.data(), row.size(), x), x == 2 || x == 5 || x == 9) << x;
  }
}

}  // namespace
