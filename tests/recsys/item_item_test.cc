// Item-item against a plain reference written from the definition (dense vectors, std::sort
// for the neighbourhood), plus its edge cases.
#include "recsys/item_item.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include "core/error.h"
#include "recsys/kernels/isa.h"
#include "recsys/movielens_100k_loader.h"
#include "test_data.h"

namespace {

using namespace assay::recsys;

// Reference score straight from the definition in item_item.h.
double reference_score(const Ratings& r, UserId u, ItemId target) {
  const std::size_t n_items = r.n_items(), n_users = r.n_users();
  std::vector<double> mean(n_items, 0);
  for (ItemId i = 0; i < n_items; ++i) {
    const auto v = r.values_of_item(i);
    double s = 0;
    for (float x : v) s += x;
    mean[i] = v.empty() ? 0 : s / static_cast<double>(v.size());
  }
  auto centred = [&](UserId user, ItemId i) {
    const auto v = r.rating(user, i);
    return v ? *v - mean[i] : 0.0;
  };
  auto cosine = [&](ItemId a, ItemId b) {
    double dot = 0, na = 0, nb = 0;
    for (UserId v = 0; v < n_users; ++v) {
      const double x = centred(v, a), y = centred(v, b);
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    return (na == 0 || nb == 0) ? 0.0 : dot / std::sqrt(na * nb);
  };
  std::vector<std::pair<double, double>> nbrs;  // (sim, centred rating)
  for (ItemId j : r.items_of(u)) {
    if (j == target) continue;
    const double s = cosine(target, j);
    if (s > 1e-6) nbrs.emplace_back(s, centred(u, j));
  }
  if (nbrs.empty()) return std::nan("");
  std::stable_sort(nbrs.begin(), nbrs.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (nbrs.size() > 20) nbrs.resize(20);
  double num = 0, den = 0;
  for (const auto& [s, c] : nbrs) {
    num += s * c;
    den += s;
  }
  return mean[target] + num / den;
}

TEST(ItemItem, MatchesReferenceOnSmallData) {
  const Ratings r = fixtures::small_synthetic(3);
  ItemItem model;
  model.fit(r, {});
  // The heaviest user takes the neighbour-walk path (n_u > sqrt(20 * 200) = 63), the
  // lightest the gather path; both must match the definition.
  UserId heavy = 0, light = 0;
  for (UserId u = 0; u < r.n_users(); ++u) {
    if (r.items_of(u).size() > r.items_of(heavy).size()) heavy = u;
    if (r.items_of(u).size() < r.items_of(light).size()) light = u;
  }
  ASSERT_GT(r.items_of(heavy).size(), 63u);
  for (UserId u : {0u, 17u, 63u, 119u, heavy, light}) {
    std::vector<ItemId> items;
    for (ItemId i = 0; i < r.n_items(); i += 7) items.push_back(i);
    std::vector<float> out(items.size());
    model.score(u, items, out);
    for (std::size_t k = 0; k < items.size(); ++k) {
      const double ref = reference_score(r, u, items[k]);
      if (std::isnan(ref)) {
        EXPECT_TRUE(std::isnan(out[k])) << u << " " << items[k];
      } else {
        EXPECT_NEAR(out[k], ref, 2e-4) << u << " " << items[k];
      }
    }
  }
}

// A top-k request (every unrated item at once) takes the column-wise path for light users;
// item-by-item requests take the gather path. Same bits, every user.
TEST(ItemItem, AllItemsAtOnceEqualsOneByOneBitForBit) {
  const Ratings r = fixtures::small_synthetic(5);
  ItemItem model;
  model.fit(r, {});
  std::vector<ItemId> all(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) all[i] = i;
  std::vector<float> dense(all.size());
  std::size_t compared = 0;
  for (UserId u = 0; u < r.n_users(); ++u) {
    model.score(u, all, dense);
    for (ItemId i = 0; i < r.n_items(); ++i) {
      const std::vector<ItemId> one = {i};
      std::vector<float> out(1);
      model.score(u, one, out);
      if (std::isnan(out[0])) {
        ASSERT_TRUE(std::isnan(dense[i])) << u << " " << i;
      } else {
        ASSERT_EQ(std::memcmp(&out[0], &dense[i], sizeof(float)), 0)
            << u << " " << i << ": " << out[0] << " vs " << dense[i];
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, r.n_users() * r.n_items() / 2);
}

// No neighbours is a usage error at fit (the walk's hit buffer assumes at least one).
TEST(ItemItem, ZeroNeighboursIsAUsageError) {
  ItemItem model({.n_neighbors = 0});
  EXPECT_THROW(model.fit(fixtures::small_synthetic(3), {0, 1}), assay::core::UsageError);
}

TEST(ItemItem, UnscorableWithoutPositiveNeighbours) {
  // Item 2 is rated only by user 1, whose centred rating is 0: no similarity with anything.
  const Ratings r = Ratings::from_triplets(
      {{0, 0, 5}, {0, 1, 1}, {1, 0, 1}, {1, 1, 5}, {1, 2, 3}, {2, 0, 4}}, 3, 3);
  ItemItem model;
  model.fit(r, {});
  const std::vector<ItemId> items = {2};
  std::vector<float> out(1);
  model.score(0, items, out);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(model.similarity(0, 0), 0.0f);
}

TEST(ItemItem, ThreadsDoNotChangeSimilarities) {
  const Ratings r = fixtures::small_synthetic(4);
  ItemItem a, b;
  a.fit(r, {0, 1});
  b.fit(r, {0, 2});
  for (ItemId i = 0; i < r.n_items(); ++i) {
    for (ItemId j = 0; j < r.n_items(); ++j) {
      ASSERT_EQ(a.similarity(i, j), b.similarity(i, j));
      ASSERT_EQ(a.similarity(i, j), a.similarity(j, i));  // the mirrored triangle
    }
  }
}

// The pruned top-k (mean order, stop at the bound) is the list of scoring every candidate and
// selecting: for light and heavy users, several k, all unrated items and a half of them.
std::size_t expect_top_k_is_exhaustive(const Ratings& r) {
  ItemItem model;
  model.fit(r, {0, 1});
  std::size_t heavy = 0;
  for (UserId u = 0; u < r.n_users(); ++u) {
    const auto rated = r.items_of(u);
    heavy += rated.size() * rated.size() > 20 * r.n_items();
    std::vector<ItemId> all, half;
    for (ItemId i = 0, q = 0; i < r.n_items(); ++i) {
      if (q < rated.size() && rated[q] == i) {
        ++q;
        continue;
      }
      all.push_back(i);
      if (i % 2 == u % 2) half.push_back(i);
    }
    for (const auto* candidates : {&all, &half}) {
      for (const std::size_t k : {std::size_t{1}, std::size_t{10}, std::size_t{50}}) {
        const auto pruned = model.top_k(u, *candidates, k);
        const auto exhaustive = model.Recommender::top_k(u, *candidates, k);
        EXPECT_EQ(pruned, exhaustive) << "user " << u << ", k " << k;
        if (pruned != exhaustive) return heavy;
      }
    }
  }
  return heavy;
}

TEST(ItemItem, PrunedTopKIsTheExhaustiveList) {
  EXPECT_GT(expect_top_k_is_exhaustive(fixtures::small_synthetic(6)), 0u);
}

TEST(ItemItem, PrunedTopKIsTheExhaustiveListOnMovieLens) {
  const std::string dir = std::string(ASSAY_SHARED_DATA_DIR) + "/movielens-100k";
  if (!std::ifstream(dir + "/u.data")) GTEST_SKIP() << "no ML-100K at " << dir;
  EXPECT_GT(expect_top_k_is_exhaustive(read_movielens_100k_ratings(dir + "/u.data")), 100u);
}

// The walk's AVX-512 loop (where the CPU has it) and the scalar loop give the same bits for
// every user and item of ML-100K: heavy users walk, light ones take the other paths.
TEST(ItemItem, VectorWalkEqualsScalarWalkBitForBitOnMovieLens) {
  const std::string dir = std::string(ASSAY_SHARED_DATA_DIR) + "/movielens-100k";
  if (!std::ifstream(dir + "/u.data")) GTEST_SKIP() << "no ML-100K at " << dir;
  if (!kernels::has_avx512()) GTEST_SKIP() << "no AVX-512 here: one walk only";
  const Ratings r = read_movielens_100k_ratings(dir + "/u.data");
  ItemItem vector_walk, scalar_walk({.vector_walk = false});
  vector_walk.fit(r, {0, 1});
  scalar_walk.fit(r, {0, 1});
  std::vector<ItemId> items(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
  std::vector<float> a(items.size()), b(items.size());
  std::size_t heavy = 0;
  for (UserId u = 0; u < r.n_users(); ++u) {
    heavy += r.items_of(u).size() * r.items_of(u).size() > 20 * r.n_items();
    vector_walk.score(u, items, a);
    scalar_walk.score(u, items, b);
    ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << "user " << u;
    ASSERT_EQ(vector_walk.top_k(u, items, 10), scalar_walk.top_k(u, items, 10)) << "user " << u;
  }
  EXPECT_GT(heavy, 100u);
}

}  // namespace
