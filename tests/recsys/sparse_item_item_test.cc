// Item-item with truncated neighbour lists (sparse_item_item.h, item-item:keep=K): equal to
// the dense model bit for bit when nothing is cut, lists that are the dense rows' prefixes,
// the automatic choice above the dense cap, determinism; and user-user's rows computed when
// scored, equal to its dense matrix.
#include "recsys/sparse_item_item.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "recsys/item_item.h"
#include "recsys/user_user.h"
#include "test_data.h"

namespace {

using namespace assay::recsys;

// Heavy users (n_u > sqrt(20 * n_items)) and light ones, so both summation orders are met.
Ratings mid_synthetic() {
  SyntheticOptions o;
  o.n_users = 300;
  o.n_items = 600;
  o.n_ratings = 30000;
  o.seed = 11;
  return generate_synthetic_ratings(o);
}

std::vector<ItemId> all_items(const Ratings& r) {
  std::vector<ItemId> items(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
  return items;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

ItemItem item_item_keeping(std::size_t keep) {
  ItemItemOptions o;
  o.keep = keep;
  return ItemItem(o);
}

TEST(SparseItemItem, KeepingEveryItemEqualsTheDenseModelBitForBit) {
  for (const Ratings& r : {fixtures::small_synthetic(3), mid_synthetic()}) {
    ItemItem dense = item_item_keeping(ItemItemOptions::kKeepAll);
    ItemItem sparse = item_item_keeping(r.n_items());
    dense.fit(r, {});
    sparse.fit(r, {});
    ASSERT_EQ(dense.sparse(), nullptr);
    ASSERT_NE(sparse.sparse(), nullptr);
    const std::size_t heavy_min = static_cast<std::size_t>(std::sqrt(20.0 * r.n_items()));
    std::size_t heavy = 0, light = 0;
    const auto items = all_items(r);
    for (UserId u = 0; u < r.n_users(); ++u) {
      (r.items_of(u).size() > heavy_min ? heavy : light) += 1;
      std::vector<float> a(items.size()), b(items.size());
      dense.score(u, items, a);
      sparse.score(u, items, b);  // every target at once
      ASSERT_TRUE(same_bits(a, b)) << "user " << u;
      // A few targets: each list is walked.
      const std::vector<ItemId> few = {0, static_cast<ItemId>(u % r.n_items()), 7};
      std::vector<float> c(few.size()), d(few.size());
      dense.score(u, few, c);
      sparse.score(u, few, d);
      ASSERT_TRUE(same_bits(c, d)) << "user " << u;
    }
    EXPECT_GT(heavy, 0u);
    EXPECT_GT(light, 0u);
    EXPECT_EQ(recommend_all(dense, r, 10), recommend_all(sparse, r, 10));
  }
}

TEST(SparseItemItem, KeptListsAreTheMostSimilarOfTheDenseRows) {
  const Ratings r = fixtures::small_synthetic(5);
  ItemItem dense = item_item_keeping(ItemItemOptions::kKeepAll);
  dense.fit(r, {});
  for (const std::size_t keep : {1u, 5u, 40u}) {
    SparseItemItem sparse({20, 1e-6f, keep});
    sparse.fit(r, {});
    std::size_t cut = 0;
    for (ItemId i = 0; i < r.n_items(); ++i) {
      // The dense row's positive entries, most similar first, ties by smaller id.
      std::vector<std::pair<float, ItemId>> row;
      for (ItemId j = 0; j < r.n_items(); ++j) {
        if (dense.similarity(i, j) > 0.0f) row.emplace_back(dense.similarity(i, j), j);
      }
      std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      if (row.size() > keep) ++cut;
      row.resize(std::min(row.size(), keep));
      const auto ids = sparse.neighbors_of(i);
      const auto sims = sparse.similarities_of(i);
      ASSERT_EQ(ids.size(), row.size()) << "item " << i;
      for (std::size_t p = 0; p < row.size(); ++p) {
        EXPECT_EQ(ids[p], row[p].second);
        EXPECT_EQ(std::memcmp(&sims[p], &row[p].first, sizeof(float)), 0);
      }
    }
    EXPECT_GT(cut, r.n_items() / 2) << "keep " << keep << " cut too few lists to test anything";
  }
}

TEST(SparseItemItem, TruncatedScoresFollowTheKeptLists) {
  const Ratings r = mid_synthetic();
  SparseItemItem model({20, 1e-6f, 30});
  model.fit(r, {});
  const auto items = all_items(r);
  std::size_t scored = 0, unscorable = 0;
  for (UserId u = 0; u < r.n_users(); u += 7) {
    std::vector<float> all(items.size());
    model.score(u, items, all);
    for (ItemId t = 0; t < r.n_items(); t += 13) {
      // Definition: the user's rated items among t's kept list, the first 20 of the list.
      double num = 0, den = 0;
      std::size_t n = 0;
      const auto ids = model.neighbors_of(t);
      const auto sims = model.similarities_of(t);
      for (std::size_t p = 0; p < ids.size() && n < 20; ++p) {
        const auto v = r.rating(u, ids[p]);
        if (!v) continue;
        double mean = 0;
        for (float x : r.values_of_item(ids[p])) mean += x;
        mean /= static_cast<double>(r.values_of_item(ids[p]).size());
        num += sims[p] * (*v - mean);
        den += sims[p];
        ++n;
      }
      // One target alone takes the walk; it must give the bits of the all-at-once pass.
      float one = 0;
      model.score(u, std::span<const ItemId>(&t, 1), std::span<float>(&one, 1));
      EXPECT_EQ(std::memcmp(&one, &all[t], sizeof(float)), 0) << u << " " << t;
      if (n == 0) {
        EXPECT_TRUE(std::isnan(all[t]));
        ++unscorable;
        continue;
      }
      double mean_t = 0;
      for (float x : r.values_of_item(t)) mean_t += x;
      mean_t /= static_cast<double>(r.values_of_item(t).size());
      EXPECT_NEAR(all[t], mean_t + num / den, 1e-4) << u << " " << t;
      ++scored;
    }
  }
  EXPECT_GT(scored, 100u);
  EXPECT_GT(unscorable + scored, scored);  // short lists leave some targets unscorable
}

TEST(SparseItemItem, AboveTheDenseCapAutoKeepsBoundedListsAndAllIsRefused) {
  SyntheticOptions o;
  o.n_users = 400;
  o.n_items = ItemItem::kMaxItems + 500;
  o.n_ratings = 40000;
  o.seed = 2;
  const Ratings r = generate_synthetic_ratings(o);
  ItemItem model;  // keep=auto
  model.fit(r, {});
  ASSERT_NE(model.sparse(), nullptr);
  std::size_t longest = 0, entries = 0;
  for (ItemId i = 0; i < r.n_items(); ++i) {
    longest = std::max(longest, model.sparse()->neighbors_of(i).size());
    entries += model.sparse()->neighbors_of(i).size();
  }
  EXPECT_LE(longest, ItemItemOptions::kAutoKeep);
  EXPECT_LE(entries, r.n_items() * ItemItemOptions::kAutoKeep);
  // Lists and transpose: 16 bytes an entry plus two offset arrays, not n_items^2 floats.
  EXPECT_LE(model.sparse()->list_bytes(), entries * 16 + (r.n_items() + 1) * 16);
  EXPECT_LT(model.sparse()->list_bytes() * 20, r.n_items() * r.n_items() * sizeof(float));
  const auto lists = recommend_all(model, r, 10);
  std::size_t full = 0;
  for (const auto& l : lists) full += l.size() == 10 ? 1 : 0;
  EXPECT_EQ(full, r.n_users());

  ItemItem all = item_item_keeping(ItemItemOptions::kKeepAll);
  try {
    all.fit(r, {});
    ADD_FAILURE() << "keep=all fitted " << r.n_items() << " items";
  } catch (const assay::core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 16384 items"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("keep=K"), std::string::npos) << e.what();
  }
  // Below the cap, auto is the dense model, also refitted after a sparse fit.
  const Ratings small = fixtures::small_synthetic(3);
  model.fit(small, {});
  EXPECT_EQ(model.sparse(), nullptr);
  ItemItem fresh;
  fresh.fit(small, {});
  EXPECT_EQ(recommend_all(model, small, 10), recommend_all(fresh, small, 10));
}

TEST(SparseItemItem, ThreadsAndRefitsChangeNothing) {
  const Ratings r = mid_synthetic();
  ItemItem one = item_item_keeping(25), three = item_item_keeping(25);
  one.fit(r, {0, 1});
  three.fit(fixtures::small_synthetic(3), {0, 2});  // an earlier fit of other data...
  three.fit(r, {0, 3});                             // ...leaves nothing behind
  for (ItemId i = 0; i < r.n_items(); ++i) {
    const auto a = one.sparse()->neighbors_of(i), b = three.sparse()->neighbors_of(i);
    ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << i;
    const auto x = one.sparse()->similarities_of(i), y = three.sparse()->similarities_of(i);
    ASSERT_EQ(std::memcmp(x.data(), y.data(), x.size_bytes()), 0) << i;
  }
  EXPECT_EQ(recommend_all(one, r, 10, 1), recommend_all(three, r, 10, 2));
}

TEST(SparseItemItem, ZeroKeepOrNeighboursIsAUsageError) {
  const Ratings r = fixtures::small_synthetic(3);
  SparseItemItem no_keep({20, 1e-6f, 0}), no_neighbours({0, 1e-6f, 10});
  EXPECT_THROW(no_keep.fit(r, {}), assay::core::UsageError);
  EXPECT_THROW(no_neighbours.fit(r, {}), assay::core::UsageError);
}

TEST(UserUser, RowsComputedWhenScoredEqualTheDenseMatrixBitForBit) {
  const Ratings r = mid_synthetic();
  UserUserOptions on_demand;
  on_demand.max_dense_users = 0;
  UserUser dense, lazy(on_demand);
  dense.fit(r, {0, 2});
  lazy.fit(r, {0, 2});
  const auto items = all_items(r);
  for (UserId u = 0; u < r.n_users(); ++u) {
    std::vector<float> a(items.size()), b(items.size());
    dense.score(u, items, a);  // the neighbour walk
    lazy.score(u, items, b);
    ASSERT_TRUE(same_bits(a, b)) << "user " << u;
    const std::vector<ItemId> few = {1, static_cast<ItemId>(u % r.n_items())};
    std::vector<float> c(few.size()), d(few.size());
    dense.score(u, few, c);  // item by item
    lazy.score(u, few, d);
    ASSERT_TRUE(same_bits(c, d)) << "user " << u;
  }
  EXPECT_EQ(recommend_all(dense, r, 10, 1), recommend_all(lazy, r, 10, 2));
}

}  // namespace
