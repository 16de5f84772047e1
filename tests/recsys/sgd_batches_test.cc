// schedule_sgd_batches: a permutation of the epoch, batches free of shared users and items,
// each user's and each item's updates in their original order, the gap kept.
#include "recsys/sgd_batches.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "recsys/sgd_order.h"
#include "test_data.h"

namespace {

using namespace assay::recsys;

void expect_valid_schedule(const std::vector<Rating>& ordered, std::size_t n_users,
                           std::size_t n_items, const SgdBatches& s, std::size_t gap) {
  ASSERT_EQ(s.positions.size(), s.n_batches * s.lanes);
  std::vector<int> seen(ordered.size(), 0);
  std::size_t padding = 0;
  // Per resource: (batch, original position) of its last use so far.
  std::vector<std::pair<std::int64_t, std::int64_t>> last_user(n_users, {-1000, -1}),
      last_item(n_items, {-1000, -1});
  std::size_t gap_breaks = 0;
  for (std::size_t b = 0; b < s.n_batches; ++b) {
    std::map<UserId, int> users;
    std::map<ItemId, int> items;
    for (std::size_t q = 0; q < s.lanes; ++q) {
      const std::uint32_t p = s.positions[b * s.lanes + q];
      if (p == SgdBatches::kPadding) {
        ++padding;
        continue;
      }
      ASSERT_LT(p, ordered.size());
      ++seen[p];
      const Rating& r = ordered[p];
      ASSERT_EQ(users[r.user]++, 0) << "user shared in batch " << b;
      ASSERT_EQ(items[r.item]++, 0) << "item shared in batch " << b;
      const auto bi = static_cast<std::int64_t>(b), pi = static_cast<std::int64_t>(p);
      ASSERT_LT(last_user[r.user].second, pi) << "user order broken at position " << p;
      ASSERT_LT(last_item[r.item].second, pi) << "item order broken at position " << p;
      const auto g = static_cast<std::int64_t>(gap);
      if (last_user[r.user].first > bi - g || last_item[r.item].first > bi - g) ++gap_breaks;
      last_user[r.user] = {bi, pi};
      last_item[r.item] = {bi, pi};
    }
  }
  for (std::size_t p = 0; p < ordered.size(); ++p) ASSERT_EQ(seen[p], 1) << "position " << p;
  EXPECT_EQ(padding, s.padding);
  // The gap yields only to a lone update (a batch of one).
  std::size_t lone = 0;
  for (std::size_t b = 0; b < s.n_batches; ++b) {
    std::size_t used = 0;
    for (std::size_t q = 0; q < s.lanes; ++q)
      used += s.positions[b * s.lanes + q] != SgdBatches::kPadding;
    lone += used == 1;
  }
  EXPECT_LE(gap_breaks, lone);
}

TEST(SgdBatches, ValidScheduleOnSyntheticData) {
  const Ratings r = fixtures::small_synthetic(5);
  const auto ordered = sgd_order(r, 3);
  for (const std::size_t gap : {1u, 2u, 3u}) {
    SCOPED_TRACE(gap);
    const SgdBatches s = schedule_sgd_batches(ordered, r.n_users(), r.n_items(), 16, gap, 256);
    expect_valid_schedule(ordered, r.n_users(), r.n_items(), s, gap);
    // 120 users and 200 items with popular ones: with the default gap batches fill well.
    if (gap <= 2) {
      EXPECT_LT(s.padding * 4, s.positions.size()) << s.padding;
    }
  }
}

TEST(SgdBatches, OneUserRatingEverythingGoesOneLaneAtATime) {
  std::vector<Rating> ordered;
  for (ItemId i = 0; i < 40; ++i) ordered.push_back({0, (i * 7) % 40, 3.0f});
  const SgdBatches s = schedule_sgd_batches(ordered, 1, 40, 16, 2, 64);
  expect_valid_schedule(ordered, 1, 40, s, 2);
  EXPECT_EQ(s.n_batches, 40u);
  EXPECT_EQ(s.filled(), 40u);
  for (std::size_t b = 0; b < 40; ++b) EXPECT_EQ(s.positions[b * 16], b);
}

TEST(SgdBatches, MixedHeavyAndLightResources) {
  // A heavy user and a heavy item among many light ones, and a small window: the scan must
  // keep order where it defers.
  std::vector<Rating> ordered;
  assay::core::Rng rng(17);
  for (int k = 0; k < 3000; ++k) {
    const auto u = static_cast<UserId>(rng.below(3) == 0 ? 0 : 1 + rng.below(60));
    const auto i = static_cast<ItemId>(rng.below(4) == 0 ? 0 : 1 + rng.below(90));
    ordered.push_back({u, i, 4.0f});
  }
  for (const std::size_t window : {16u, 40u, 300u}) {
    SCOPED_TRACE(window);
    const SgdBatches s = schedule_sgd_batches(ordered, 61, 91, 16, 2, window);
    expect_valid_schedule(ordered, 61, 91, s, 2);
  }
}

TEST(SgdBatches, EmptyEpoch) {
  const SgdBatches s = schedule_sgd_batches({}, 3, 3);
  EXPECT_EQ(s.n_batches, 0u);
  EXPECT_TRUE(s.positions.empty());
}

}  // namespace
