// MovieLens 1M/10M, MovieLens latest and generic CSV loaders: good files and one test per
// bad-input path (file:line in the message).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "core/error.h"
#include "recsys/csv_ratings_loader.h"
#include "recsys/movielens_1m_loader.h"
#include "recsys/movielens_latest_loader.h"
#include "support/temp_dir.h"

namespace {

using assay::core::ParseError;
using assay::testing::TempDir;
using namespace assay::recsys;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string parse_error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ParseError";
  return "";
}

TEST(MovieLens1m, LoadsRatingsAndGenres) {
  TempDir dir;
  dir.write("ratings.dat", "1::1193::5::978300760\n1::661::3::978302109\n2::1193::4::978300000\n");
  dir.write("movies.dat",
            "1193::One Flew Over the Cuckoo's Nest (1975)::Drama\n"
            "661::James and the Giant Peach (1996)::Animation|Children's|Musical\n"
            "5::Nobody rated me (1995)::Comedy\n");
  const Ratings r = load_movielens_1m(dir.path().string());
  EXPECT_EQ(r.n_users(), 2u);
  EXPECT_EQ(r.n_items(), 2u);
  EXPECT_EQ(r.item_label(0), "661");  // numeric label order
  EXPECT_EQ(r.scale().low, 1.0);
  EXPECT_EQ(r.n_attributes(), 4u);  // Animation, Children's, Drama, Musical
  EXPECT_EQ(r.attribute_name(2), "Drama");
  EXPECT_THAT(r.attributes_of(1), ElementsAre(2u));
}

TEST(MovieLens1m, HalfStarsGiveTenMillionScale) {
  TempDir dir;
  const auto p = dir.write("ratings.dat", "1::1::4.5::0\n1::2::0.5::0\n");
  const Ratings r = read_movielens_1m_ratings(p);
  EXPECT_EQ(r.scale().low, 0.5);
  EXPECT_EQ(r.rating(0, 1), 0.5f);
}

TEST(MovieLens1m, BadInput) {
  TempDir dir;
  auto p = dir.write("ratings.dat", "1::1::5::0\n1::2::5\n");
  auto msg = parse_error_of([&] { read_movielens_1m_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("ratings.dat:2"));
  EXPECT_THAT(msg, HasSubstr("expected 4 '::'-separated fields"));
  p = dir.write("ratings.dat", "1::1::5::0\n1::2::x::0\n");
  msg = parse_error_of([&] { read_movielens_1m_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("ratings.dat:2:7"));
  EXPECT_THAT(msg, HasSubstr("expected a numeric rating"));
  p = dir.write("ratings.dat", "1::1::5.5::0\n");
  msg = parse_error_of([&] { read_movielens_1m_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("ratings.dat:1"));
  EXPECT_THAT(msg, HasSubstr("off the scale"));
  p = dir.write("ratings.dat", "1::1::5::0\n1::1::4::0\n");
  msg = parse_error_of([&] { read_movielens_1m_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("ratings.dat:2"));
  EXPECT_THAT(msg, HasSubstr("duplicate"));
  p = dir.write("ratings.dat", "");
  msg = parse_error_of([&] { read_movielens_1m_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("no ratings found"));
  dir.write("ratings.dat", "1::1::5::0\n");
  dir.write("movies.dat", "1::Title only\n");
  msg = parse_error_of([&] { load_movielens_1m(dir.path().string()); });
  EXPECT_THAT(msg, HasSubstr("movies.dat:1"));
  EXPECT_THAT(msg, HasSubstr("expected 3 '::'-separated fields"));
}

TEST(MovieLensLatest, LoadsRatingsAndGenres) {
  TempDir dir;
  dir.write("ratings.csv",
            "userId,movieId,rating,timestamp\n1,1,4.0,964982703\n1,3,3.5,0\n"
            "2,1,0.5,0\n");
  dir.write("movies.csv",
            "movieId,title,genres\n1,Toy Story (1995),Adventure|Animation\n"
            "3,\"Grumpier Old Men, The (1995)\",(no genres listed)\n"
            "4,Unrated (1995),Drama\n");
  const Ratings r = load_movielens_latest(dir.path().string());
  EXPECT_EQ(r.n_users(), 2u);
  EXPECT_EQ(r.n_items(), 2u);
  EXPECT_EQ(r.scale().low, 0.5);
  EXPECT_EQ(r.rating(0, 1), 3.5f);
  EXPECT_EQ(r.n_attributes(), 2u);
  EXPECT_THAT(r.attributes_of(0), ElementsAre(0u, 1u));
  EXPECT_TRUE(r.attributes_of(1).empty());
}

TEST(MovieLensLatest, BadInput) {
  TempDir dir;
  auto p = dir.write("ratings.csv", "userId,movieId,score\n1,1,4\n");
  auto msg = parse_error_of([&] { read_movielens_latest_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("ratings.csv:1"));
  EXPECT_THAT(msg, HasSubstr("expected a column named 'rating'"));
  p = dir.write("ratings.csv", "userId,movieId,rating,timestamp\n1,1,4,0\n1,2,4\n");
  msg = parse_error_of([&] { read_movielens_latest_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("ratings.csv:3"));
  EXPECT_THAT(msg, HasSubstr("expected 4 fields, got 3"));
  p = dir.write("ratings.csv", "userId,movieId,rating,timestamp\n1,1,4.25,0\n");
  msg = parse_error_of([&] { read_movielens_latest_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("ratings.csv:2:5"));
  EXPECT_THAT(msg, HasSubstr("off the scale 0.5..5"));
}

TEST(CsvRatings, NamedColumnsAnyOrder) {
  TempDir dir;
  const auto p = dir.write("r.csv",
                           "score,who,what,extra\n5,alice,film-a,x\n2,bob,film-a,y\n"
                           "4,alice,film-b,z\n");
  CsvRatingsOptions o;
  o.user_column = "who";
  o.item_column = "what";
  o.rating_column = "score";
  const Ratings r = load_csv_ratings(p, o);
  EXPECT_EQ(r.n_users(), 2u);
  EXPECT_EQ(r.user_label(0), "alice");  // first-appearance order for non-numeric labels
  EXPECT_EQ(r.rating(*r.find_user("bob"), *r.find_item("film-a")), 2.0f);
}

TEST(CsvRatings, BadInput) {
  TempDir dir;
  auto p = dir.write("r.csv", "user,item\n1,2\n");
  auto msg = parse_error_of([&] { load_csv_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("r.csv:1"));
  EXPECT_THAT(msg, HasSubstr("'rating'"));
  p = dir.write("r.csv", "user,item,rating\n1,2,NaN\n");
  msg = parse_error_of([&] { load_csv_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("r.csv:2:5"));
  p = dir.write("r.csv", "user,item,rating\n1,2,3\n1,2,4\n");
  msg = parse_error_of([&] { load_csv_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("r.csv:3"));
  EXPECT_THAT(msg, HasSubstr("first rated on line 2"));
  p = dir.write("r.csv", "user,item,rating\n,2,4\n");
  msg = parse_error_of([&] { load_csv_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("expected a user id"));
  p = dir.write("r.csv", "user,item,rating\n");
  msg = parse_error_of([&] { load_csv_ratings(p); });
  EXPECT_THAT(msg, HasSubstr("no ratings found"));
}

}  // namespace
