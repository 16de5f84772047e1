// The LightFM-style hybrid: it learns (held-out hit rate far above random), it is
// deterministic for a seed, the seed matters, and the genre features change the model.
#include "recsys/hybrid.h"

#include <gtest/gtest.h>

#include <set>

#include "test_data.h"

namespace {

using namespace assay::recsys;

TEST(Hybrid, HeldOutHitRateFarAboveRandom) {
  SyntheticOptions o;
  o.n_users = 200;
  o.n_items = 300;
  o.n_ratings = 12000;
  o.seed = 9;
  const auto split = fixtures::holdout(generate_synthetic_ratings(o), 0.1, 3);
  Hybrid model;
  model.fit(split.train, {1, 1});
  const TopKLists lists = recommend_all(model, split.train, 10, 1);
  std::vector<std::set<ItemId>> held(split.train.n_users());
  for (const Rating& r : split.test) held[r.user].insert(r.item);
  double hits = 0, expected_random = 0;
  for (UserId u = 0; u < split.train.n_users(); ++u) {
    ASSERT_EQ(lists[u].size(), 10u);
    for (ItemId i : lists[u]) hits += held[u].count(i);
    const double unrated = static_cast<double>(split.train.n_items() - split.train.items_of(u).size());
    expected_random += 10.0 * static_cast<double>(held[u].size()) / unrated;
  }
  EXPECT_GT(hits, 3.0 * expected_random) << hits << " vs random " << expected_random;
}

TEST(Hybrid, SeededAndFeatureSensitive) {
  const Ratings r = fixtures::small_synthetic(10);
  HybridOptions small;
  small.n_epochs = 5;
  Hybrid a(small), b(small), c(small);
  a.fit(r, {3, 1});
  b.fit(r, {3, 2});
  c.fit(r, {4, 1});
  HybridOptions no_genres = small;
  no_genres.use_attributes = false;
  Hybrid d(no_genres);
  d.fit(r, {3, 1});
  std::vector<ItemId> items(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
  std::vector<float> sa(items.size()), sb(items.size()), sc(items.size()), sd(items.size());
  bool seed_matters = false, genres_matter = false;
  for (UserId u = 0; u < r.n_users(); ++u) {
    a.score(u, items, sa);
    b.score(u, items, sb);
    c.score(u, items, sc);
    d.score(u, items, sd);
    ASSERT_EQ(sa, sb);
    seed_matters = seed_matters || sa != sc;
    genres_matter = genres_matter || sa != sd;
  }
  EXPECT_TRUE(seed_matters);
  EXPECT_TRUE(genres_matter);
}

}  // namespace
