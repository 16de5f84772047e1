// MovieLens 100K loader: the committed tiny fixture, the real data when present, and one test
// per bad-input path (the message names file:line).
#include "recsys/movielens_100k_loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <set>
#include <utility>

#include "core/error.h"
#include "support/temp_dir.h"

namespace {

using assay::core::ParseError;
using assay::testing::TempDir;
using namespace assay::recsys;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kTiny = std::string(ASSAY_TEST_DATA_DIR) + "/recsys/ml100k-tiny";
const std::string kReal = std::string(ASSAY_SHARED_DATA_DIR) + "/movielens-100k";

std::string expect_parse_error(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ParseError";
  return "";
}

std::string item_line(const std::string& id, const std::string& flags) {
  return id + "|Title|01-Jan-1995||http://x|" + flags + "\n";
}
const std::string kFlags = "0|0|0|0|0|0|0|0|1|0|0|0|0|0|0|0|0|0|0";

TEST(MovieLens100k, LoadsTinyFixtureWithGenres) {
  const Ratings r = load_movielens_100k(kTiny);
  EXPECT_EQ(r.n_users(), 4u);
  EXPECT_EQ(r.n_items(), 4u);
  EXPECT_EQ(r.n_ratings(), 10u);
  EXPECT_EQ(r.user_label(0), "1");
  EXPECT_EQ(r.rating(0, 0), 5.0f);
  EXPECT_EQ(r.n_attributes(), 19u);
  // Item 1: Action, Adventure, Thriller; item 2 (Latin-1 title): Comedy, Drama.
  EXPECT_THAT(r.attributes_of(0), ElementsAre(1u, 2u, 16u));
  EXPECT_THAT(r.attributes_of(1), ElementsAre(5u, 8u));
  EXPECT_EQ(r.attribute_name(16), "Thriller");
}

TEST(MovieLens100k, RealDataShape) {
  if (!std::filesystem::exists(kReal + "/u.data")) GTEST_SKIP() << "no shared ML-100K";
  const Ratings r = load_movielens_100k(kReal);
  EXPECT_EQ(r.n_users(), 943u);
  EXPECT_EQ(r.n_items(), 1682u);
  EXPECT_EQ(r.n_ratings(), 100000u);
  // The canonical first row: 196 242 3.
  const auto u = r.find_user("196");
  const auto i = r.find_item("242");
  ASSERT_TRUE(u && i);
  EXPECT_EQ(r.rating(*u, *i), 3.0f);
  EXPECT_EQ(r.item_label(0), "1");
  std::size_t with_genres = 0;
  for (ItemId k = 0; k < r.n_items(); ++k) with_genres += !r.attributes_of(k).empty();
  EXPECT_EQ(with_genres, 1682u);
}

// The u1..u5 rule of mku.sh: fold f tests on the f-th block of 20,000 lines of u.data.
TEST(MovieLens100k, OfficialFoldsPartitionUData) {
  if (!std::filesystem::exists(kReal + "/u.data")) GTEST_SKIP() << "no shared ML-100K";
  std::set<std::pair<std::string, std::string>> tested;
  std::size_t left_out = 0;
  for (int f = 1; f <= 5; ++f) {
    const MovieLensFold fold = movielens_100k_fold(kReal + "/u.data", f);
    EXPECT_EQ(fold.train.n_ratings(), 80000u) << f;
    EXPECT_EQ(fold.test.size() + fold.left_out, 20000u) << f;
    EXPECT_LT(fold.left_out, 100u) << f;  // items whose every rating falls in this fold
    left_out += fold.left_out;
    for (const Rating& r : fold.test) {
      const auto key = std::make_pair(fold.train.user_label(r.user), fold.train.item_label(r.item));
      EXPECT_TRUE(tested.insert(key).second) << "tested twice: " << key.first << " " << key.second;
      EXPECT_FALSE(fold.train.rating(r.user, r.item).has_value());  // disjoint from its base
    }
    if (f == 1) {  // u.data's first line (196 242 3) opens u1.test
      const auto u = fold.train.find_user("196");
      const auto i = fold.train.find_item("242");
      ASSERT_TRUE(u && i);
      EXPECT_FALSE(fold.train.rating(*u, *i).has_value());
    }
  }
  EXPECT_EQ(tested.size() + left_out, 100000u);
}

TEST(MovieLens100k, FoldsNeedTheOriginalFile) {
  TempDir dir;
  const std::string data = dir.write("u.data", "1\t1\t5\t0\n1\t2\t3\t0\n");
  EXPECT_THAT(expect_parse_error([&] { movielens_100k_fold(data, 1); }),
              HasSubstr("100000 ratings"));
  EXPECT_THROW(movielens_100k_fold(data, 6), assay::core::UsageError);
}

TEST(MovieLens100k, WrongColumnCount) {
  TempDir dir;
  const auto p = dir.write("u.data", "1\t1\t5\t0\n1\t2\t3\n");
  const auto msg = expect_parse_error([&] { read_movielens_100k_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("u.data:2"));
  EXPECT_THAT(msg, HasSubstr("expected 4 tab-separated columns"));
}

TEST(MovieLens100k, NonNumericRating) {
  TempDir dir;
  const auto p = dir.write("u.data", "1\t1\t5\t0\n1\t2\tgood\t0\n");
  const auto msg = expect_parse_error([&] { read_movielens_100k_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("u.data:2:5"));
  EXPECT_THAT(msg, HasSubstr("expected a numeric rating, got 'good'"));
}

TEST(MovieLens100k, OffScaleRating) {
  TempDir dir;
  const auto p = dir.write("u.data", "1\t1\t5\t0\n\n1\t2\t6\t0\n");
  const auto msg = expect_parse_error([&] { read_movielens_100k_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("u.data:3"));
  EXPECT_THAT(msg, HasSubstr("rating 6 is off the scale 1..5"));
}

TEST(MovieLens100k, DuplicatePair) {
  TempDir dir;
  const auto p = dir.write("u.data", "1\t1\t5\t0\n2\t1\t3\t0\n1\t1\t4\t0\n");
  const auto msg = expect_parse_error([&] { read_movielens_100k_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("u.data:3"));
  EXPECT_THAT(msg, HasSubstr("duplicate rating of user '1' for item '1' (first rated on line 1)"));
}

TEST(MovieLens100k, EmptyData) {
  TempDir dir;
  const auto p = dir.write("u.data", "\n");
  const auto msg = expect_parse_error([&] { read_movielens_100k_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("u.data"));
  EXPECT_THAT(msg, HasSubstr("no ratings found"));
}

TEST(MovieLens100k, ItemFileNamesUnknownItem) {
  TempDir dir;
  dir.write("u.data", "1\t1\t5\t0\n1\t2\t3\t0\n");
  dir.write("u.item", item_line("1", kFlags) + item_line("2", kFlags) + item_line("99", kFlags));
  const auto msg = expect_parse_error([&] { load_movielens_100k(dir.path().string()); });
  EXPECT_THAT(msg, HasSubstr("u.item:3:1"));
  EXPECT_THAT(msg, HasSubstr("item '99' does not appear in the ratings"));
}

TEST(MovieLens100k, ItemFileWrongColumnCountAndBadFlag) {
  TempDir dir;
  dir.write("u.data", "1\t1\t5\t0\n1\t2\t3\t0\n");
  dir.write("u.item", item_line("1", kFlags) + "2|Title|x||y|0|1\n");
  auto msg = expect_parse_error([&] { load_movielens_100k(dir.path().string()); });
  EXPECT_THAT(msg, HasSubstr("u.item:2"));
  EXPECT_THAT(msg, HasSubstr("expected 24 '|'-separated columns"));
  dir.write("u.item", item_line("1", "0|0|0|0|0|0|0|0|yes|0|0|0|0|0|0|0|0|0|0"));
  msg = expect_parse_error([&] { load_movielens_100k(dir.path().string()); });
  EXPECT_THAT(msg, HasSubstr("u.item:1"));
  EXPECT_THAT(msg, HasSubstr("expected a genre flag 0 or 1 for 'Drama', got 'yes'"));
}

TEST(MovieLens100k, MissingDirectoryIsIoError) {
  TempDir dir;
  EXPECT_THROW(load_movielens_100k(dir.file("nope")), assay::core::IoError);
}

}  // namespace
