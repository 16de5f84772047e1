// User-user against a plain reference written from the definition.
#include "recsys/user_user.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "test_data.h"

namespace {

using namespace assay::recsys;

double reference_score(const Ratings& r, UserId u, ItemId target) {
  const std::size_t n_users = r.n_users(), n_items = r.n_items();
  std::vector<double> mean(n_users, 0);
  for (UserId v = 0; v < n_users; ++v) {
    const auto x = r.values_of_user(v);
    double s = 0;
    for (float y : x) s += y;
    mean[v] = x.empty() ? 0 : s / static_cast<double>(x.size());
  }
  auto centred = [&](UserId v, ItemId i) {
    const auto x = r.rating(v, i);
    return x ? *x - mean[v] : 0.0;
  };
  auto cosine = [&](UserId a, UserId b) {
    double dot = 0, na = 0, nb = 0;
    for (ItemId i = 0; i < n_items; ++i) {
      const double x = centred(a, i), y = centred(b, i);
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    return (na == 0 || nb == 0) ? 0.0 : dot / std::sqrt(na * nb);
  };
  std::vector<std::pair<double, double>> nbrs;
  for (UserId v : r.users_of(target)) {
    if (v == u) continue;
    const double s = cosine(u, v);
    if (s > 1e-6) nbrs.emplace_back(s, centred(v, target));
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
  return mean[u] + num / den;
}

TEST(UserUser, MatchesReferenceOnSmallData) {
  const Ratings r = fixtures::small_synthetic(5);
  UserUser model;
  model.fit(r, {});
  for (UserId u : {0u, 31u, 77u, 119u}) {
    std::vector<ItemId> items;
    for (ItemId i = 1; i < r.n_items(); i += 9) items.push_back(i);
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

TEST(UserUser, ZeroNeighboursIsAUsageError) {
  UserUser model({.n_neighbors = 0});
  EXPECT_THROW(model.fit(fixtures::small_synthetic(3), {0, 1}), assay::core::UsageError);
}

TEST(UserUser, ThreadsDoNotChangeSimilarities) {
  const Ratings r = fixtures::small_synthetic(6);
  UserUser a, b;
  a.fit(r, {0, 1});
  b.fit(r, {0, 2});
  for (UserId u = 0; u < r.n_users(); ++u) {
    for (UserId v = 0; v < r.n_users(); ++v) ASSERT_EQ(a.similarity(u, v), b.similarity(u, v));
  }
}

}  // namespace

namespace {

// The item-by-item path (short lists) and the neighbour walk (long lists) give the same bits.
TEST(UserUser, ShortAndLongListPathsAgreeBitwise) {
  const assay::recsys::Ratings r = assay::recsys::fixtures::small_synthetic(7);
  assay::recsys::UserUser model;
  model.fit(r, {});
  std::vector<assay::recsys::ItemId> all(r.n_items());
  for (assay::recsys::ItemId i = 0; i < r.n_items(); ++i) all[i] = i;
  std::vector<float> long_path(all.size());
  for (assay::recsys::UserId u = 0; u < r.n_users(); u += 3) {
    model.score(u, all, long_path);
    for (assay::recsys::ItemId i = 0; i < r.n_items(); ++i) {
      float one = 0;
      model.score(u, std::span<const assay::recsys::ItemId>(&all[i], 1), std::span<float>(&one, 1));
      if (std::isnan(one)) {
        ASSERT_TRUE(std::isnan(long_path[i]));
      } else {
        ASSERT_EQ(one, long_path[i]) << u << " " << i;
      }
    }
  }
}

}  // namespace
