// The LightFM-style hybrid: it learns (held-out hit rate far above random), it is
// deterministic for a seed, the seed matters, the genre features change the model, and the
// batched trainer gives the reference trainer's bits.
#include "recsys/hybrid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <string>

#include "core/rng.h"
#include "recsys/data_spec.h"
#include "recsys/hybrid_training.h"
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
    const double unrated =
        static_cast<double>(split.train.n_items() - split.train.items_of(u).size());
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

// Every user's scores for every item, from a fit with the given trainer.
std::vector<float> all_scores(const Ratings& r, HybridOptions o, HybridKernel kernel,
                              std::uint64_t seed) {
  o.kernel = kernel;
  Hybrid model(o);
  model.fit(r, {seed, 1});
  EXPECT_EQ(model.last_kernel(), kernel);
  std::vector<ItemId> items(r.n_items());
  for (ItemId i = 0; i < r.n_items(); ++i) items[i] = i;
  std::vector<float> out(r.n_users() * r.n_items());
  for (UserId u = 0; u < r.n_users(); ++u) {
    model.score(u, items, std::span<float>(out.data() + u * r.n_items(), r.n_items()));
  }
  return out;
}

void expect_same_bits(const Ratings& r, const HybridOptions& o, std::uint64_t seed) {
  const auto reference = all_scores(r, o, HybridKernel::kReference, seed);
  const auto batched = all_scores(r, o, HybridKernel::kBatched, seed);
  ASSERT_EQ(reference.size(), batched.size());
  EXPECT_EQ(std::memcmp(reference.data(), batched.data(), reference.size() * sizeof(float)), 0)
      << "components " << o.n_components << ", max_sampled " << o.max_sampled << ", attributes "
      << o.use_attributes;
}

TEST(Hybrid, BatchedTrainerGivesTheReferenceBits) {
  if (!Hybrid::batched_available()) GTEST_SKIP() << "no batched trainer on this target";
  const Ratings r = fixtures::small_synthetic(11);
  ASSERT_GT(r.n_attributes(), 0u);
  // Row widths 12 (the default), 8 and 4 (run-time width), 16 and 32 (compile-time, no
  // padding); sample caps that fill the last group of four, leave it partial, or stop at one.
  for (std::size_t components : {10u, 7u, 3u, 16u, 32u}) {
    for (std::size_t max_sampled : {10u, 8u, 1u}) {
      HybridOptions o;
      o.n_components = components;
      o.max_sampled = max_sampled;
      o.n_epochs = 4;
      expect_same_bits(r, o, 5);
    }
  }
  HybridOptions identity_only;
  identity_only.use_attributes = false;
  identity_only.n_epochs = 4;
  expect_same_bits(r, identity_only, 6);
}

// The group's dot products are sums in component order, bit for bit: magnitudes spread over
// many binades with cancellations, so another order would round differently somewhere.
TEST(Hybrid, GroupDotsAddInComponentOrder) {
  assay::core::Rng rng(3, 0);
  std::size_t differ_from_reverse = 0;
  for (std::size_t d = 1; d <= 33; ++d) {
    const std::size_t w = (d + 3) / 4 * 4;
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<float> user(w, 0.0f), negs(hybrid_training::kGroup * w, 0.0f);
      const auto draw = [&] {
        return static_cast<float>(rng.normal() * std::ldexp(1.0, static_cast<int>(rng.below(20))));
      };
      for (std::size_t c = 0; c < d; ++c) user[c] = draw();
      for (std::size_t g = 0; g < hybrid_training::kGroup; ++g) {
        for (std::size_t c = 0; c < d; ++c) negs[g * w + c] = draw();
      }
      float dot[hybrid_training::kGroup];
      hybrid_training::group_dots(user.data(), negs.data(), d, w, dot);
      for (std::size_t g = 0; g < hybrid_training::kGroup; ++g) {
        float forward = 0, reverse = 0;
        for (std::size_t c = 0; c < d; ++c) forward += user[c] * negs[g * w + c];
        for (std::size_t c = d; c-- > 0;) reverse += user[c] * negs[g * w + c];
        ASSERT_EQ(std::memcmp(&dot[g], &forward, sizeof(float)), 0) << "d " << d << " row " << g;
        differ_from_reverse += forward != reverse ? 1 : 0;
      }
    }
  }
  EXPECT_GT(differ_from_reverse, 100u);  // the data tells orders apart
}

TEST(Hybrid, BatchedTrainerGivesTheReferenceBitsOnMovieLens) {
  if (!Hybrid::batched_available()) GTEST_SKIP() << "no batched trainer on this target";
  const std::string dir = std::string(ASSAY_SHARED_DATA_DIR) + "/movielens-100k";
  if (!std::ifstream(dir + "/u.data")) GTEST_SKIP() << "no ML-100K at " << dir;
  const Ratings r = load_ratings("movielens-100k:" + dir);
  ASSERT_GT(r.n_attributes(), 0u);
  HybridOptions o;  // the defaults but for fewer epochs (the test runs under ASan too)
  o.n_epochs = 3;
  expect_same_bits(r, o, 0);
}

}  // namespace
