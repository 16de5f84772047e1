#include "stability/heuristic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.h"
#include "core/rng.h"
#include "fixture.h"

namespace assay::stability {
namespace {

using recsys::Modification;
using Kind = Modification::Kind;

struct Tiny {
  recsys::Ratings data = testing::tiny_ratings();
  Influence influence = compute_influence(data, testing::tiny_top());
  std::vector<Modification> gen(Heuristic h, std::size_t n, std::uint64_t seed = 1) const {
    return generate_modifications(h, data, influence, n, seed);
  }
};

void expect_valid(const recsys::Ratings& data, const std::vector<Modification>& mods) {
  std::set<std::pair<recsys::UserId, recsys::ItemId>> pairs;
  for (const auto& m : mods) {
    EXPECT_TRUE(pairs.insert({m.user, m.item}).second)
        << "duplicate pair " << m.user << "," << m.item;
    const bool rated = data.rating(m.user, m.item).has_value();
    EXPECT_EQ(rated, m.kind != Kind::kAdd);
    if (m.kind != Kind::kRemove) {
      EXPECT_TRUE(data.scale().contains(m.value));
    }
  }
  EXPECT_NO_THROW(data.apply(mods));
}

TEST(Heuristic, AmuTargetsTheMostInfluentialUsersInTurn) {
  const Tiny t;  // I_U = 2, 2, 2, 1: u0..u2 tie; each has 3 unrated items.
  const auto mods = t.gen(Heuristic::kAmu, 4);
  ASSERT_EQ(mods.size(), 4u);
  expect_valid(t.data, mods);
  for (const auto& m : mods) EXPECT_LT(m.user, 3u);
  EXPECT_EQ(mods[0].user, mods[2].user);  // one user until exhausted ...
  EXPECT_NE(mods[2].user, mods[3].user);  // ... then the next one
  // Asking for more than the data holds gives every unrated cell (20 - 7 = 13).
  EXPECT_EQ(t.gen(Heuristic::kAmu, 50).size(), 13u);
}

TEST(Heuristic, TiesAreBrokenUniformlyAtRandom) {
  const Tiny t;
  std::map<recsys::UserId, int> first_user;
  for (std::uint64_t seed = 0; seed < 300; ++seed)
    ++first_user[t.gen(Heuristic::kAmu, 1, seed)[0].user];
  EXPECT_EQ(first_user.count(3), 0u);
  for (recsys::UserId u = 0; u < 3; ++u) {
    EXPECT_GT(first_user[u], 60) << u;
    EXPECT_LT(first_user[u], 140) << u;
  }
}

TEST(Heuristic, RmuAndCmuTouchTheTopUsersRatings) {
  const Tiny t;
  const auto removes = t.gen(Heuristic::kRmu, 3);
  ASSERT_EQ(removes.size(), 3u);
  expect_valid(t.data, removes);
  for (const auto& m : removes) {
    EXPECT_EQ(m.kind, Kind::kRemove);
    EXPECT_LT(m.user, 3u);
  }
  EXPECT_EQ(removes[0].user, removes[1].user);
  // CMU never "changes" a rating that already is l: u2's i1 = 1 is skipped, 6 of 7 remain.
  const auto changes = t.gen(Heuristic::kCmu, 10);
  EXPECT_EQ(changes.size(), 6u);
  expect_valid(t.data, changes);
  for (const auto& m : changes) {
    EXPECT_EQ(m.kind, Kind::kChange);
    EXPECT_EQ(m.value, 1.0f);
    EXPECT_FALSE(m.user == 2 && m.item == 1);
  }
}

TEST(Heuristic, AliAddsToTheLeastInfluentialItem) {
  const Tiny t;  // I_I = 2, 2, 1, 1, 0: i4 is least influential; u0..u2 have not rated it.
  const auto mods = t.gen(Heuristic::kAli, 4);
  ASSERT_EQ(mods.size(), 4u);
  expect_valid(t.data, mods);
  std::set<recsys::UserId> users;
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(mods[k].item, 4u);
    users.insert(mods[k].user);
  }
  EXPECT_EQ(users, (std::set<recsys::UserId>{0, 1, 2}));
  EXPECT_TRUE(mods[3].item == 2 || mods[3].item == 3);  // next: the tie at I_I = 1
}

TEST(Heuristic, AmrAddsToItemsNearTheMostInfluentialValue) {
  const Tiny t;  // I_R peaks at r = 2, items i1 (mean 2) and i2 (mean 2); 2 + 3 non-raters.
  const auto mods = t.gen(Heuristic::kAmr, 6);
  ASSERT_EQ(mods.size(), 6u);
  expect_valid(t.data, mods);
  for (std::size_t k = 0; k < 5; ++k) EXPECT_TRUE(mods[k].item == 1 || mods[k].item == 2);
  // Then r = 3 (i4) or r = 5 (i3), tied at I_R = 1.
  EXPECT_TRUE(mods[5].item == 3 || mods[5].item == 4);
}

TEST(Heuristic, AmaAddsLowValuesToTheTopAttributeItem) {
  const Tiny t;  // item scores 0, 0, 1, 1, 1
  const auto mods = t.gen(Heuristic::kAma, 2);
  ASSERT_EQ(mods.size(), 2u);
  expect_valid(t.data, mods);
  EXPECT_GE(mods[0].item, 2u);
  EXPECT_EQ(mods[0].item, mods[1].item);
  for (const auto& m : mods) EXPECT_EQ(m.value, 1.0f);
}

TEST(Heuristic, RandomBaselinesCoverTheirCellsExactly) {
  const Tiny t;
  const auto adds = t.gen(Heuristic::kArand, 100);
  EXPECT_EQ(adds.size(), 13u);  // every unrated cell once
  expect_valid(t.data, adds);
  const auto removes = t.gen(Heuristic::kRrand, 100);
  EXPECT_EQ(removes.size(), 7u);
  expect_valid(t.data, removes);
  const auto changes = t.gen(Heuristic::kCrand, 100);
  EXPECT_EQ(changes.size(), 6u);  // not the rating that already is 1
  expect_valid(t.data, changes);
}

TEST(Heuristic, PortfolioIsRoundRobin) {
  const Tiny t;
  const auto mods = t.gen(Heuristic::kAportfolio, 4);
  ASSERT_EQ(mods.size(), 4u);
  expect_valid(t.data, mods);
  EXPECT_LT(mods[0].user, 3u);                          // AMU
  EXPECT_EQ(mods[1].item, 4u);                          // ALI
  EXPECT_TRUE(mods[2].item == 1 || mods[2].item == 2);  // AMR
  EXPECT_GE(mods[3].item, 2u);                          // AMA
  EXPECT_EQ(mods[3].value, 1.0f);
  // The generators share one set of pairs: asking for everything never repeats a pair.
  const auto all = t.gen(Heuristic::kAportfolio, 100);
  EXPECT_EQ(all.size(), 13u);
  expect_valid(t.data, all);
  HeuristicOptions nested;
  nested.portfolio = {Heuristic::kAportfolio};
  EXPECT_THROW(generate_modifications(Heuristic::kAportfolio, t.data, t.influence, 1, 0, nested),
               core::UsageError);
}

TEST(Heuristic, EveryHeuristicIsDeterministicAndValidOnRandomData) {
  core::Rng rng(7, 0);
  std::vector<recsys::Rating> triplets;
  const std::size_t n_users = 200, n_items = 40;
  for (recsys::UserId u = 0; u < n_users; ++u) {
    for (recsys::ItemId i = 0; i < n_items; ++i) {
      if (rng.bernoulli(0.2)) triplets.push_back({u, i, static_cast<float>(rng.between(1, 5))});
    }
  }
  auto data = recsys::Ratings::from_triplets(triplets, n_users, n_items);
  std::vector<std::vector<recsys::AttributeId>> attrs(n_items);
  for (auto& a : attrs) a = {static_cast<recsys::AttributeId>(rng.below(3))};
  data.set_item_attributes(attrs, {"x", "y", "z"});
  recsys::TopKLists top(n_users);
  for (recsys::UserId u = 0; u < n_users; ++u) {
    for (recsys::ItemId i = 0; i < n_items && top[u].size() < 5; ++i) {
      if (!data.rating(u, i) && rng.bernoulli(0.3)) top[u].push_back(i);
    }
  }
  const auto influence = compute_influence(data, top);
  for (const Heuristic h : all_heuristics()) {
    SCOPED_TRACE(std::string(to_string(h)));
    const auto a = generate_modifications(h, data, influence, 100, 42);
    const auto b = generate_modifications(h, data, influence, 100, 42);
    const auto c = generate_modifications(h, data, influence, 100, 43);
    ASSERT_EQ(a.size(), 100u);
    expect_valid(data, a);
    for (const auto& m : a) EXPECT_EQ(m.kind, modification_kind(h));
    bool same = true, differs = false;
    for (std::size_t k = 0; k < a.size(); ++k) {
      same = same && a[k].user == b[k].user && a[k].item == b[k].item && a[k].value == b[k].value;
      differs = differs || a[k].user != c[k].user || a[k].item != c[k].item;
    }
    EXPECT_TRUE(same);
    EXPECT_TRUE(differs);
  }
}

TEST(Heuristic, NamesBaselinesAndKinds) {
  for (const Heuristic h : all_heuristics()) EXPECT_EQ(parse_heuristic(to_string(h)), h);
  EXPECT_EQ(parse_heuristic("amr"), Heuristic::kAmr);
  EXPECT_EQ(random_baseline(Heuristic::kAmu), Heuristic::kArand);
  EXPECT_EQ(random_baseline(Heuristic::kRmu), Heuristic::kRrand);
  EXPECT_EQ(random_baseline(Heuristic::kCmu), Heuristic::kCrand);
  EXPECT_EQ(random_baseline(Heuristic::kAportfolio), Heuristic::kArand);
  try {
    parse_heuristic("XYZ");
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("XYZ"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("APORTFOLIO"), std::string::npos);
  }
}

}  // namespace
}  // namespace assay::stability
