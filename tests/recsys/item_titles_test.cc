// Item titles for output a person reads: MovieLens 100K (Latin-1 u.item), 1M (movies.dat) and
// latest (movies.csv, quoted titles); none for data without a title file.
#include "recsys/item_titles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "recsys/data_spec.h"
#include "support/temp_dir.h"

namespace assay::recsys {
namespace {

using assay::testing::TempDir;

std::vector<std::string> titles_of(const std::string& spec) {
  const DataSpec parsed = parse_data_spec(spec);
  return load_item_titles(parsed, load_ratings(parsed));
}

TEST(ItemTitles, MovieLens100kTitlesDecodedFromLatin1) {
  const auto data =
      load_ratings("movielens-100k:" + std::string(ASSAY_TEST_DATA_DIR) + "/recsys/ml100k-tiny");
  const auto titles =
      titles_of("movielens-100k:" + std::string(ASSAY_TEST_DATA_DIR) + "/recsys/ml100k-tiny");
  ASSERT_EQ(titles.size(), data.n_items());
  EXPECT_EQ(titles[*data.find_item("1")], "GoldenEye (1995)");
  EXPECT_EQ(titles[*data.find_item("2")], "Caf\u00e9 (1996)");  // byte 0xE9 in the file
  EXPECT_EQ(titles[*data.find_item("4")], "Four (1997)");
}

TEST(ItemTitles, MovieLens1mAndLatest) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("m1"));
  std::filesystem::create_directories(dir.file("latest"));
  dir.write("m1/ratings.dat", "1::10::5::978300760\n1::20::3::978302109\n2::10::4::978301968\n");
  dir.write("m1/movies.dat",
            "10::Toy Story (1995)::Animation|Comedy\n"
            "20::Who::What? (2000)::Drama\n");
  const auto m1 = titles_of("movielens-1m:" + dir.file("m1"));
  const auto d1 = load_ratings("movielens-1m:" + dir.file("m1"));
  EXPECT_EQ(m1[*d1.find_item("10")], "Toy Story (1995)");
  EXPECT_EQ(m1[*d1.find_item("20")], "Who::What? (2000)");  // a title may hold the separator
  dir.write("latest/ratings.csv",
            "userId,movieId,rating,timestamp\n1,10,4.5,1\n1,20,3.0,2\n2,10,0.5,3\n");
  dir.write("latest/movies.csv",
            "movieId,title,genres\n10,\"American President, The (1995)\",Comedy|Drama|Romance\n"
            "20,Heat (1995),Action\n");
  const auto latest = titles_of("movielens-latest:" + dir.file("latest"));
  const auto dl = load_ratings("movielens-latest:" + dir.file("latest"));
  EXPECT_EQ(latest[*dl.find_item("10")], "American President, The (1995)");
  EXPECT_EQ(latest[*dl.find_item("20")], "Heat (1995)");
}

TEST(ItemTitles, NoneWithoutATitleFile) {
  EXPECT_TRUE(titles_of("synthetic:users=5,items=6,ratings=12,seed=1").empty());
  TempDir dir;
  std::filesystem::create_directories(dir.file("m1"));
  dir.write("r.csv", "user,item,rating\n1,2,3\n");
  EXPECT_TRUE(titles_of("csv:" + dir.file("r.csv")).empty());
  dir.write("m1/ratings.dat", "1::10::5::978300760\n");  // no movies.dat
  EXPECT_TRUE(titles_of("movielens-1m:" + dir.file("m1")).empty());
}

}  // namespace
}  // namespace assay::recsys
