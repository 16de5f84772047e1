#include "stability/influence.h"

#include <gtest/gtest.h>

#include <cmath>

#include "fixture.h"

namespace assay::stability {
namespace {

TEST(Influence, HandComputedValues) {
  const auto data = testing::tiny_ratings();
  const auto inf = compute_influence(data, testing::tiny_top());
  // I_U: u0 rated {0,1}, recommended to u2 and u1 -> 2; u1 {0,2}: u2, u0 -> 2;
  // u2 {1,3}: u1, u0 -> 2; u3 {4}: u0 -> 1.
  EXPECT_EQ(inf.user, (std::vector<std::uint32_t>{2, 2, 2, 1}));
  // I_I: raters with a non-empty top-k; i4's only rater u3 has none.
  EXPECT_EQ(inf.item, (std::vector<std::uint32_t>{2, 2, 1, 1, 0}));
  // Each item is recommended once: I_A(a0) = i0 + i2 = 2, I_A(a1) = i2 + i3 + i4 = 3.
  EXPECT_EQ(inf.attribute, (std::vector<std::uint32_t>{2, 3}));
  // I_A2(a0) = 2·1/2 - 1 = 0, I_A2(a1) = 2·2/2 - 1 = 1.
  EXPECT_EQ(inf.attribute_rescaled, (std::vector<double>{0, 1}));
  EXPECT_EQ(inf.item_attribute_score, (std::vector<double>{0, 0, 1, 1, 1}));
  // Means 4.5, 2, 2, 5, 3: I_R(2) counts i1 and i2, I_R(3) i4, I_R(5) i3.
  EXPECT_EQ(inf.rating_values, (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(inf.rating, (std::vector<std::uint32_t>{0, 2, 1, 0, 1}));
  EXPECT_DOUBLE_EQ(inf.item_mean[0], 4.5);
}

TEST(Influence, FinerRatingGridAndEpsilon) {
  const auto data = testing::tiny_ratings();
  InfluenceOptions options;
  options.rating_values = {4.5, 4.46, 4.44};
  const auto inf = compute_influence(data, testing::tiny_top(), options);
  // |4.46 - 4.5| = 0.04 <= 0.05 counts, |4.44 - 4.5| = 0.06 does not.
  EXPECT_EQ(inf.rating, (std::vector<std::uint32_t>{1, 1, 0}));
}

TEST(Influence, UnratedItemHasNoMean) {
  auto data = recsys::Ratings::from_triplets({{0, 0, 3}}, 2, 2);
  const auto inf = compute_influence(data, {{1}, {0}});
  EXPECT_TRUE(std::isnan(inf.item_mean[1]));
  EXPECT_EQ(inf.rating[2], 1u);  // only i0 (mean 3, recommended to u1)
  EXPECT_TRUE(inf.attribute.empty());
  EXPECT_EQ(inf.item_attribute_score, (std::vector<double>{0, 0}));
}

}  // namespace
}  // namespace assay::stability
