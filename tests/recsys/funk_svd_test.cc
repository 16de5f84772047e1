// FunkSVD against a plain double-precision reference of LensKit's featurewise SGD (written
// from the description in funk_svd.h), determinism, and the seed's effect.
#include "recsys/funk_svd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "recsys/bias_model.h"
#include "recsys/kernels/isa.h"
#include "recsys/ratings_builder.h"
#include "recsys/sgd_order.h"
#include "test_data.h"

namespace {

using namespace assay::recsys;

struct Reference {
  std::vector<std::vector<double>> uf, itf;  // [feature][id]
  BiasModel base;
};

Reference reference_fit(const Ratings& r, const FunkSvdOptions& o, std::uint64_t seed) {
  Reference m;
  m.base = BiasModel::fit(r, o.bias_damping);
  const auto order =
      o.order == FunkSvdOrder::kStable ? sgd_order(r, seed) : shuffled_order(r, seed);
  const double lo = o.clamp ? 1.0 : -INFINITY, hi = o.clamp ? 5.0 : INFINITY;
  std::vector<double> est(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    est[k] = std::clamp(m.base.predict(order[k].user, order[k].item), lo, hi);
  }
  for (std::size_t f = 0; f < o.n_features; ++f) {
    std::vector<double> uf(r.n_users(), o.initial_value), itf(r.n_items(), o.initial_value);
    const double trail = double(o.initial_value) * o.initial_value * double(o.n_features - f - 1);
    for (std::size_t e = 0; e < o.n_epochs; ++e) {
      for (std::size_t k = 0; k < order.size(); ++k) {
        const auto& x = order[k];
        const double u = uf[x.user], i = itf[x.item];
        const double pred = std::clamp(est[k] + u * i, lo, hi) + trail;
        const double err = x.value - pred;
        uf[x.user] = u + o.learning_rate * (err * i - o.regularization * u);
        itf[x.item] = i + o.learning_rate * (err * u - o.regularization * i);
      }
    }
    for (std::size_t k = 0; k < order.size(); ++k) {
      est[k] = std::clamp(est[k] + uf[order[k].user] * itf[order[k].item], lo, hi);
    }
    m.uf.push_back(uf);
    m.itf.push_back(itf);
  }
  return m;
}

TEST(FunkSvd, MatchesDoublePrecisionReference) {
  const Ratings r = fixtures::small_synthetic(2);
  FunkSvdOptions o;
  o.n_features = 4;
  o.n_epochs = 30;
  o.learning_rate = 0.005f;
  FunkSvd model(o);
  model.fit(r, {11, 1});
  const Reference ref = reference_fit(r, o, 11);
  double max_diff = 0;
  for (UserId u = 0; u < r.n_users(); u += 5) {
    std::vector<ItemId> items(r.n_items());
    for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
    std::vector<float> out(items.size());
    model.score(u, items, out);
    for (ItemId i = 0; i < r.n_items(); ++i) {
      double s = std::clamp(ref.base.predict(u, i), 1.0, 5.0);
      const bool known = !r.items_of(u).empty() && !r.users_of(i).empty();
      for (std::size_t f = 0; known && f < o.n_features; ++f) {
        s = std::clamp(s + ref.uf[f][u] * ref.itf[f][i], 1.0, 5.0);
      }
      max_diff = std::max(max_diff, std::abs(out[i] - s));
      ASSERT_GE(out[i], 1.0f);
      ASSERT_LE(out[i], 5.0f);
    }
  }
  EXPECT_LT(max_diff, 1e-3);
}

// The LensKit profile (no damping, no clamping, a fresh shuffle per training set) against the
// same reference without clamps: scores leave the scale, and the order is the shuffle.
TEST(FunkSvd, UnclampedShuffledMatchesDoublePrecisionReference) {
  const Ratings r = fixtures::small_synthetic(2);
  FunkSvdOptions o;
  o.n_features = 4;
  o.n_epochs = 30;
  o.learning_rate = 0.005f;
  o.bias_damping = 0;
  o.clamp = false;
  o.order = FunkSvdOrder::kShuffle;
  const Reference ref = reference_fit(r, o, 11);
  for (const FunkSvdKernel kernel : {FunkSvdKernel::kSerial, FunkSvdKernel::kBatched}) {
    o.kernel = kernel;
    FunkSvd model(o);
    model.fit(r, {11, 1});
    double max_diff = 0;
    bool off_scale = false;
    std::vector<ItemId> items(r.n_items());
    for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
    std::vector<float> out(items.size());
    for (UserId u = 0; u < r.n_users(); ++u) {
      model.score(u, items, out);
      for (ItemId i = 0; i < r.n_items(); ++i) {
        double s = ref.base.predict(u, i);
        const bool known = !r.items_of(u).empty() && !r.users_of(i).empty();
        for (std::size_t f = 0; known && f < o.n_features; ++f) s += ref.uf[f][u] * ref.itf[f][i];
        max_diff = std::max(max_diff, std::abs(out[i] - s));
        off_scale = off_scale || out[i] > 5.0f || out[i] < 1.0f;
      }
    }
    EXPECT_LT(max_diff, 1e-3);
    EXPECT_TRUE(off_scale);
  }
}

TEST(FunkSvd, ShuffledOrderIsAFreshPermutationPerTrainingSet) {
  const Ratings r = fixtures::small_synthetic(4);
  const auto a = shuffled_order(r, 9);
  EXPECT_EQ(shuffled_order(r, 9).size(), a.size());
  auto same = [](const std::vector<Rating>& x, const std::vector<Rating>& y) {
    std::size_t n = 0;
    for (std::size_t k = 0; k < std::min(x.size(), y.size()); ++k) {
      n += x[k].user == y[k].user && x[k].item == y[k].item;
    }
    return n;
  };
  EXPECT_EQ(same(a, shuffled_order(r, 9)), a.size());  // same data, same seed
  // A permutation of the ratings.
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end(), [](const Rating& x, const Rating& y) {
    return x.user != y.user ? x.user < y.user : x.item < y.item;
  });
  const auto canonical = r.triplets();
  ASSERT_EQ(sorted.size(), canonical.size());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    ASSERT_EQ(sorted[k].user, canonical[k].user);
    ASSERT_EQ(sorted[k].item, canonical[k].item);
  }
  // Another seed, and one changed value (same pairs), each reshuffle nearly everything.
  EXPECT_LT(same(a, shuffled_order(r, 10)), a.size() / 20);
  const Rating x = a[0];
  const float other = x.value == 1.0f ? 2.0f : 1.0f;
  const std::vector<Modification> change = {{Modification::Kind::kChange, x.user, x.item, other}};
  EXPECT_LT(same(a, shuffled_order(r.apply(change), 9)), a.size() / 20);
}

TEST(FunkSvd, SameSeedBitwiseOtherSeedDiffers) {
  const Ratings r = fixtures::small_synthetic(3);
  FunkSvdOptions o;
  o.n_features = 3;
  o.n_epochs = 20;
  FunkSvd a(o), b(o), c(o);
  a.fit(r, {5, 1});
  b.fit(r, {5, 2});
  c.fit(r, {6, 1});
  std::vector<ItemId> items(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
  std::vector<float> sa(items.size()), sb(items.size()), sc(items.size());
  bool differs = false;
  for (UserId u = 0; u < r.n_users(); ++u) {
    a.score(u, items, sa);
    b.score(u, items, sb);
    c.score(u, items, sc);
    ASSERT_EQ(sa, sb);
    differs = differs || sa != sc;
  }
  EXPECT_TRUE(differs);
}

TEST(FunkSvd, SgdOrderDependsOnlyOnPairs) {
  const Ratings r = fixtures::small_synthetic(4);
  const auto before = sgd_order(r, 9);
  // Remove one rating: the relative order of all others is unchanged.
  const Rating gone = before[before.size() / 2];
  const std::vector<Modification> mods = {{Modification::Kind::kRemove, gone.user, gone.item, 0}};
  const auto after = sgd_order(r.apply(mods), 9);
  ASSERT_EQ(after.size() + 1, before.size());
  std::size_t k = 0;
  for (const Rating& x : before) {
    if (x.user == gone.user && x.item == gone.item) continue;
    ASSERT_EQ(after[k].user, x.user);
    ASSERT_EQ(after[k].item, x.item);
    ++k;
  }
}

// Every kernel gives the same bits: the AVX-512 batches reorder only updates that commute.
std::vector<float> all_scores(const FunkSvd& m, const Ratings& r) {
  std::vector<ItemId> items(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
  std::vector<float> out, row(items.size());
  for (UserId u = 0; u < r.n_users(); ++u) {
    m.score(u, items, row);
    out.insert(out.end(), row.begin(), row.end());
  }
  return out;
}

void expect_kernels_agree(const Ratings& r, FunkSvdOptions o, std::uint64_t seed) {
  o.kernel = FunkSvdKernel::kSerial;
  FunkSvd scalar(o);
  scalar.fit(r, {seed, 1});
  EXPECT_EQ(scalar.last_kernel(), FunkSvdKernel::kSerial);
  o.kernel = FunkSvdKernel::kBatched;
  FunkSvd batched(o);
  batched.fit(r, {seed, 1});
  if (!kernels::has_avx512()) GTEST_SKIP() << "no AVX-512 on this CPU (or ASSAY_ISA lowers it)";
  EXPECT_EQ(batched.last_kernel(), FunkSvdKernel::kBatched);
  const std::vector<float> a = all_scores(scalar, r), b = all_scores(batched, r);
  ASSERT_EQ(a.size(), b.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    differ += std::bit_cast<std::uint32_t>(a[k]) != std::bit_cast<std::uint32_t>(b[k]);
  }
  EXPECT_EQ(differ, 0u) << "of " << a.size() << " scores";
}

TEST(FunkSvd, BatchedKernelGivesTheScalarBits) {
  FunkSvdOptions o;
  o.n_features = 5;
  o.n_epochs = 25;
  expect_kernels_agree(fixtures::small_synthetic(7), o, 3);
  expect_kernels_agree(fixtures::small_synthetic(8), o, 4);
}

TEST(FunkSvd, BatchedKernelGivesTheScalarBitsWhenLanesAreMostlyEmpty) {
  // Two users rate everything, a third a little: few updates can share a batch.
  RatingsBuilder b(RatingScale{});
  for (int i = 0; i < 60; ++i) {
    const std::string item = std::to_string(i);
    b.add_value("heavy", item, 1 + i % 5, {"t", 1});
    b.add_value("other", item, 1 + (i * 3) % 5, {"t", 1});
    if (i % 7 == 0) b.add_value("light", item, 4, {"t", 1});
  }
  const Ratings r = b.build("t");
  FunkSvdOptions o;
  o.n_features = 3;
  o.n_epochs = 40;
  expect_kernels_agree(r, o, 9);
  // Left to choose, fit() keeps the serial loop for such data.
  FunkSvd automatic(o);
  automatic.fit(r, {9, 1});
  EXPECT_EQ(automatic.last_kernel(), FunkSvdKernel::kSerial);
}

}  // namespace
