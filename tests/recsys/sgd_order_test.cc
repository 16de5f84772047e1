// The radix-sorted SGD order against the definition (sort of (key, canonical position)), and
// SgdOrder's reuse of its buffers across seeds.
#include "recsys/sgd_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "test_data.h"

namespace {

using namespace assay::recsys;

std::vector<Rating> by_definition(const Ratings& r, std::uint64_t seed) {
  const auto all = r.triplets();
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
  for (std::size_t k = 0; k < all.size(); ++k) {
    keyed.emplace_back(sgd_order_key(seed, all[k].user, all[k].item), k);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<Rating> out;
  for (const auto& [key, k] : keyed) out.push_back(all[k]);
  return out;
}

bool same(const std::vector<Rating>& a, const std::vector<Rating>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].user != b[k].user || a[k].item != b[k].item || a[k].value != b[k].value) return false;
  }
  return true;
}

TEST(SgdOrder, RadixOrderEqualsSortedKeysForManySeeds) {
  const Ratings r = fixtures::small_synthetic(4);
  SgdOrder orders(r);
  for (std::uint64_t seed : {0ull, 1ull, 7ull, 123456789ull, ~0ull}) {
    const auto expected = by_definition(r, seed);
    EXPECT_TRUE(same(orders.order(seed), expected)) << "seed " << seed;
    EXPECT_TRUE(same(sgd_order(r, seed), expected)) << "seed " << seed;
  }
  EXPECT_FALSE(same(sgd_order(r, 1), sgd_order(r, 2)));
}

}  // namespace
