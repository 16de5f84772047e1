#include "recsys/ratings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"

namespace {

using assay::recsys::Modification;
using assay::recsys::Rating;
using assay::recsys::Ratings;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Ratings small() {
  // user 0: items 2, 0; user 1: item 1; user 2: none; 3 items.
  return Ratings::from_triplets({{0, 2, 4}, {1, 1, 2}, {0, 0, 5}}, 3, 3);
}

TEST(Ratings, CsrByUserAndByItemSorted) {
  const Ratings r = small();
  EXPECT_EQ(r.n_users(), 3u);
  EXPECT_EQ(r.n_items(), 3u);
  EXPECT_EQ(r.n_ratings(), 3u);
  EXPECT_THAT(r.items_of(0), ElementsAre(0u, 2u));
  EXPECT_THAT(r.values_of_user(0), ElementsAre(5.0f, 4.0f));
  EXPECT_TRUE(r.items_of(2).empty());
  EXPECT_THAT(r.users_of(1), ElementsAre(1u));
  EXPECT_THAT(r.values_of_item(2), ElementsAre(4.0f));
  EXPECT_EQ(r.rating(0, 2), 4.0f);
  EXPECT_FALSE(r.rating(0, 1).has_value());
  EXPECT_EQ(r.user_label(0), "1");
  EXPECT_EQ(r.find_item("3"), 2u);
  EXPECT_FALSE(r.find_user("9").has_value());
  const auto t = r.triplets();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].item, 0u);
  EXPECT_EQ(t[2].user, 1u);
}

TEST(Ratings, RejectsDuplicateOutOfRangeAndOffScale) {
  try {
    Ratings::from_triplets({{0, 0, 5}, {0, 0, 4}}, 1, 1);
    FAIL();
  } catch (const assay::core::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("duplicate"));
  }
  EXPECT_THROW(Ratings::from_triplets({{1, 0, 5}}, 1, 1), assay::core::Error);
  try {
    Ratings::from_triplets({{0, 0, 7}}, 1, 1);
    FAIL();
  } catch (const assay::core::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("off the scale"));
  }
  EXPECT_THROW(Ratings::from_triplets({{0, 0, 3.5f}}, 1, 1), assay::core::Error);
}

TEST(Ratings, AttributesAndLabels) {
  Ratings r = small();
  r.set_item_attributes({{1, 0, 1}, {}, {1}}, {"Drama", "Comedy"});
  EXPECT_THAT(r.attributes_of(0), ElementsAre(0u, 1u));
  EXPECT_TRUE(r.attributes_of(1).empty());
  EXPECT_EQ(r.attribute_name(1), "Comedy");
  EXPECT_THROW(r.set_item_attributes({{5}, {}, {}}, {"x"}), assay::core::Error);
  EXPECT_THROW(r.set_item_attributes({{}}, {"x"}), assay::core::Error);
  r.set_labels({"a", "b", "c"}, {"x", "y", "z"});
  EXPECT_EQ(r.find_user("b"), 1u);
  EXPECT_THROW(r.set_labels({"a", "a", "c"}, {"x", "y", "z"}), assay::core::Error);
}

TEST(Ratings, ApplyAddRemoveChange) {
  Ratings r = small();
  r.set_item_attributes({{0}, {}, {}}, {"g"});
  const std::vector<Modification> mods = {
      {Modification::Kind::kAdd, 2, 1, 3},
      {Modification::Kind::kRemove, 0, 0, 0},
      {Modification::Kind::kChange, 0, 2, 1},
  };
  const Ratings m = r.apply(mods);
  EXPECT_EQ(m.n_ratings(), 3u);
  EXPECT_THAT(m.items_of(0), ElementsAre(2u));
  EXPECT_EQ(m.rating(0, 2), 1.0f);
  EXPECT_EQ(m.rating(2, 1), 3.0f);
  EXPECT_THAT(m.users_of(1), ElementsAre(1u, 2u));
  EXPECT_THAT(m.attributes_of(0), ElementsAre(0u));
  EXPECT_EQ(m.find_item("1"), 0u);
  // The original is untouched.
  EXPECT_EQ(r.rating(0, 0), 5.0f);
}

TEST(Ratings, ApplyRejectsInconsistentModifications) {
  const Ratings r = small();
  using K = Modification::Kind;
  EXPECT_THROW(r.apply(std::vector<Modification>{{K::kAdd, 0, 0, 3}}), assay::core::Error);
  EXPECT_THROW(r.apply(std::vector<Modification>{{K::kRemove, 2, 0, 0}}), assay::core::Error);
  EXPECT_THROW(r.apply(std::vector<Modification>{{K::kChange, 2, 0, 3}}), assay::core::Error);
  EXPECT_THROW(r.apply(std::vector<Modification>{{K::kAdd, 2, 0, 9}}), assay::core::Error);
  EXPECT_THROW(r.apply(std::vector<Modification>{{K::kAdd, 2, 0, 3}, {K::kAdd, 2, 0, 4}}),
               assay::core::Error);
  EXPECT_THROW(r.apply(std::vector<Modification>{{K::kAdd, 7, 0, 3}}), assay::core::Error);
}

TEST(Ratings, ScaleContains) {
  assay::recsys::RatingScale s;
  EXPECT_TRUE(s.contains(1));
  EXPECT_TRUE(s.contains(5.0));
  EXPECT_FALSE(s.contains(0));
  EXPECT_FALSE(s.contains(2.5));
  assay::recsys::RatingScale continuous{0, 1, {}};
  EXPECT_TRUE(continuous.contains(0.37));
  EXPECT_FALSE(continuous.contains(1.5));
}

}  // namespace
