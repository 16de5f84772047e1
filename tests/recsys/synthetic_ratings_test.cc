#include "recsys/synthetic_ratings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/error.h"

namespace {

using namespace assay::recsys;

TEST(SyntheticRatings, MovieLensShapeByDefault) {
  const Ratings r = generate_synthetic_ratings({});
  EXPECT_EQ(r.n_users(), 943u);
  EXPECT_EQ(r.n_items(), 1682u);
  EXPECT_EQ(r.n_ratings(), 100000u);
  EXPECT_EQ(r.n_attributes(), 19u);
  std::size_t min_per_user = r.n_items();
  for (UserId u = 0; u < r.n_users(); ++u)
    min_per_user = std::min(min_per_user, r.items_of(u).size());
  EXPECT_GE(min_per_user, 20u);
  // Ratings use the whole scale with a MovieLens-like mean.
  std::vector<std::size_t> counts(6, 0);
  double sum = 0;
  for (const auto& t : r.triplets()) {
    ++counts[static_cast<std::size_t>(t.value)];
    sum += t.value;
  }
  for (int v = 1; v <= 5; ++v) EXPECT_GT(counts[v], 1000u) << v;
  EXPECT_NEAR(sum / 100000.0, 3.5, 0.3);
  for (ItemId i = 0; i < r.n_items(); ++i) {
    EXPECT_FALSE(r.attributes_of(i).empty());
  }
}

TEST(SyntheticRatings, PopularityIsSkewed) {
  const Ratings r = generate_synthetic_ratings({});
  std::vector<std::size_t> pop(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) pop[i] = r.users_of(i).size();
  std::sort(pop.rbegin(), pop.rend());
  const std::size_t top10pct = std::accumulate(pop.begin(), pop.begin() + 168, std::size_t{0});
  // MovieLens 100K: the 10% most popular items hold about 40% of the ratings.
  EXPECT_GT(top10pct, 30000u);
  EXPECT_GT(pop.front(), 300u);
  EXPECT_LT(pop.back(), 20u);
}

TEST(SyntheticRatings, SameSeedSameBytesOtherSeedDiffers) {
  SyntheticOptions o;
  o.n_users = 100;
  o.n_items = 200;
  o.n_ratings = 3000;
  o.seed = 7;
  const auto a = generate_synthetic_ratings(o).triplets();
  const auto b = generate_synthetic_ratings(o).triplets();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(a[k].user, b[k].user);
    ASSERT_EQ(a[k].item, b[k].item);
    ASSERT_EQ(a[k].value, b[k].value);
  }
  o.seed = 8;
  const auto c = generate_synthetic_ratings(o).triplets();
  bool differs = c.size() != a.size();
  for (std::size_t k = 0; !differs && k < a.size(); ++k) {
    differs = a[k].item != c[k].item || a[k].value != c[k].value;
  }
  EXPECT_TRUE(differs);
}

TEST(SyntheticRatings, ImpossibleCountsAreUsageErrors) {
  SyntheticOptions o;
  o.n_users = 10;
  o.n_items = 10;
  o.n_ratings = 60;
  EXPECT_THROW(generate_synthetic_ratings(o), assay::core::UsageError);
  o.n_users = 0;
  EXPECT_THROW(generate_synthetic_ratings(o), assay::core::UsageError);
}

TEST(SyntheticRatings, DenseSmallCaseIsExact) {
  SyntheticOptions o;
  o.n_users = 10;
  o.n_items = 10;
  o.n_ratings = 50;
  const Ratings r = generate_synthetic_ratings(o);
  EXPECT_EQ(r.n_ratings(), 50u);
}

// Items whose every rating is the top value, with at most `max_raters` raters.
std::vector<ItemId> top_only_items(const Ratings& r, std::size_t max_raters) {
  std::vector<ItemId> out;
  for (ItemId i = 0; i < r.n_items(); ++i) {
    const auto v = r.values_of_item(i);
    if (v.empty() || v.size() > max_raters) continue;
    if (std::all_of(v.begin(), v.end(), [](float x) { return x == 5.0F; })) out.push_back(i);
  }
  return out;
}

// The planted tail: exactly K obscure items rated only 5 stars by one to three users, the
// least popular items, with the total number of ratings unchanged; without the option the
// generator plants nothing of the kind.
TEST(SyntheticRatings, TopOnlyItemsArePlantedInTheTail) {
  SyntheticOptions o;
  o.n_users = 300;
  o.n_items = 500;
  o.n_ratings = 20000;
  o.seed = 1;
  const Ratings plain = generate_synthetic_ratings(o);
  EXPECT_TRUE(top_only_items(plain, 3).empty());
  o.top_only_items = 12;
  const Ratings planted = generate_synthetic_ratings(o);
  EXPECT_EQ(planted.n_ratings(), 20000u);
  EXPECT_EQ(planted.n_users(), 300u);
  const auto items = top_only_items(planted, 3);
  ASSERT_EQ(items.size(), 12u);
  std::size_t raters = 0;
  for (const auto i : items) raters += planted.users_of(i).size();
  EXPECT_GE(raters, 12u);
  EXPECT_LE(raters, 36u);
  // The rest of the data keeps its shape: every user keeps at least 19 ratings.
  for (UserId u = 0; u < planted.n_users(); ++u) EXPECT_GE(planted.items_of(u).size(), 19u);
  // Deterministic.
  const auto again = generate_synthetic_ratings(o).triplets();
  const auto first = planted.triplets();
  ASSERT_EQ(again.size(), first.size());
  for (std::size_t k = 0; k < first.size(); ++k) {
    ASSERT_EQ(again[k].user, first[k].user);
    ASSERT_EQ(again[k].item, first[k].item);
    ASSERT_EQ(again[k].value, first[k].value);
  }
  o.top_only_items = 251;
  EXPECT_THROW(generate_synthetic_ratings(o), assay::core::UsageError);
}

}  // namespace
