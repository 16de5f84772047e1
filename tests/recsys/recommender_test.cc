// recommend()/recommend_all(): exclusions, tie-breaking, unscorable items, thread-count
// invariance (bitwise) for every algorithm, and the factory.
#include "recsys/recommender.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "test_data.h"

namespace {

using namespace assay::recsys;
using ::testing::ElementsAre;

// Scores fixed in the test: item i scores table[i] for every user.
class TableModel final : public Recommender {
 public:
  explicit TableModel(std::vector<float> table) : table_(std::move(table)) {}
  std::string name() const override { return "table"; }
  void fit(const Ratings&, const FitOptions&) override {}
  void score(UserId, std::span<const ItemId> items, std::span<float> out) const override {
    for (std::size_t k = 0; k < items.size(); ++k) out[k] = table_[items[k]];
  }

 private:
  std::vector<float> table_;
};

TEST(Recommend, ExcludesRatedBreaksTiesByIdSkipsUnscorable) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Items 0..6; user 0 rated items 1 and 4 (the two best scores).
  const Ratings r = Ratings::from_triplets({{0, 1, 5}, {0, 4, 3}, {1, 0, 2}}, 2, 7);
  TableModel model({2.0f, 9.0f, 3.0f, 2.0f, 8.0f, nan, 3.0f});
  EXPECT_THAT(recommend(model, r, 0, 3), ElementsAre(2u, 6u, 0u));
  EXPECT_THAT(recommend(model, r, 0, 10), ElementsAre(2u, 6u, 0u, 3u));
  EXPECT_THAT(recommend(model, r, 1, 2), ElementsAre(1u, 4u));
  EXPECT_TRUE(recommend(model, r, 1, 0).empty());
}

TEST(Recommend, EveryAlgorithmIsThreadCountInvariant) {
  const Ratings r = fixtures::small_synthetic(8);
  for (const auto& name : recommender_names()) {
    auto one = make_recommender(name);
    auto two = make_recommender(name);
    one->fit(r, {42, 1});
    two->fit(r, {42, 2});
    EXPECT_EQ(one->name(), name);
    const TopKLists a = recommend_all(*one, r, 10, 1);
    const TopKLists b = recommend_all(*two, r, 10, 2);
    ASSERT_EQ(a, b) << name;
    // Every user gets a list of unrated items.
    for (UserId u = 0; u < r.n_users(); ++u) {
      ASSERT_EQ(a[u], recommend(*one, r, u, 10)) << name;
      EXPECT_FALSE(a[u].empty()) << name << " user " << u;
      for (ItemId i : a[u]) ASSERT_FALSE(r.rating(u, i).has_value()) << name;
    }
  }
}

TEST(Recommend, FactoryRejectsUnknownNames) {
  EXPECT_THROW(make_recommender("svd++"), assay::core::UsageError);
  EXPECT_GE(recommender_names().size(), 3u);
}

TEST(Recommend, EveryAlgorithmBeatsTheGlobalMeanOnSyntheticHoldout) {
  SyntheticOptions o;
  o.n_users = 300;
  o.n_items = 400;
  o.n_ratings = 20000;
  o.seed = 5;
  const auto split = fixtures::holdout(generate_synthetic_ratings(o), 0.1, 1);
  double mean = 0;
  for (const auto& t : split.train.triplets()) mean += t.value;
  mean /= static_cast<double>(split.train.n_ratings());
  double se = 0;
  for (const auto& t : split.test) se += (t.value - mean) * (t.value - mean);
  const double rmse_mean = std::sqrt(se / static_cast<double>(split.test.size()));
  for (const char* name : {"user-user", "item-item", "funk-svd"}) {
    auto model = make_recommender(name);
    model->fit(split.train, {0, 2});
    const auto acc = fixtures::accuracy(*model, split.test, [&](UserId, ItemId) { return mean; });
    EXPECT_LT(acc.rmse, rmse_mean - 0.05) << name;
  }
}

}  // namespace
