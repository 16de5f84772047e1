#include "recsys/data_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "support/temp_dir.h"

namespace {

using namespace assay::recsys;
using ::testing::HasSubstr;

TEST(DataSpec, ParsesEveryKind) {
  auto s = parse_data_spec("movielens-100k:/data/ml-100k");
  EXPECT_EQ(s.kind, "movielens-100k");
  EXPECT_EQ(s.path, "/data/ml-100k");
  s = parse_data_spec("csv:r.csv,user=who,rating=stars");
  EXPECT_EQ(s.path, "r.csv");
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[1].second, "stars");
  s = parse_data_spec("synthetic");
  EXPECT_TRUE(s.params.empty());
  s = parse_data_spec("synthetic:users=50,items=80,ratings=1000,seed=3");
  EXPECT_EQ(s.params.size(), 4u);
}

TEST(DataSpec, BadSpecsAreUsageErrors) {
  auto message = [](const std::string& spec) {
    try {
      load_ratings(spec);
    } catch (const assay::core::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no UsageError");
  };
  EXPECT_THAT(message("netflix:/x"), HasSubstr("unknown data spec"));
  EXPECT_THAT(message("movielens-100k:"), HasSubstr("names no directory"));
  EXPECT_THAT(message("synthetic:users=ten"), HasSubstr("non-negative integer"));
  EXPECT_THAT(message("synthetic:colour=red"), HasSubstr("unknown key 'colour'"));
  EXPECT_THAT(message("synthetic:users"), HasSubstr("expected key=value"));
  EXPECT_THAT(message("synthetic:seed=1,seed=2"), HasSubstr("given twice"));
  EXPECT_THAT(message("csv:"), HasSubstr("names no file"));
  EXPECT_THAT(message("csv:x.csv,low=3,high=1"), HasSubstr("low <= high"));
}

TEST(DataSpec, LoadsSyntheticAndCsv) {
  const Ratings r = load_ratings("synthetic:users=50,items=80,ratings=1000,seed=3");
  EXPECT_EQ(r.n_users(), 50u);
  EXPECT_EQ(r.n_ratings(), 1000u);
  const Ratings planted =
      load_ratings("synthetic:users=50,items=80,ratings=1000,seed=3,top_only=4");
  std::size_t five_only = 0;
  for (ItemId i = 0; i < planted.n_items(); ++i) {
    const auto v = planted.values_of_item(i);
    five_only += !v.empty() && v.size() <= 3 &&
                 std::all_of(v.begin(), v.end(), [](float x) { return x == 5.0F; });
  }
  EXPECT_EQ(five_only, 4u);
  EXPECT_THROW(load_ratings("synthetic:items=80,top_only=41"), assay::core::UsageError);
  assay::testing::TempDir dir;
  const auto p = dir.write("r.csv", "u,i,stars\n1,1,0.25\n2,1,1\n");
  const Ratings c = load_ratings("csv:" + p + ",user=u,item=i,rating=stars,low=0,high=1,step=0.25");
  EXPECT_EQ(c.n_ratings(), 2u);
  EXPECT_EQ(c.scale().high, 1.0);
  EXPECT_THROW(load_ratings("csv:" + p + ",user=u,item=i,rating=stars"), assay::core::ParseError);
}

TEST(DataSpec, LoadsMovieLensTinyFixture) {
  const Ratings r =
      load_ratings("movielens-100k:" + std::string(ASSAY_TEST_DATA_DIR) + "/recsys/ml100k-tiny");
  EXPECT_EQ(r.n_ratings(), 10u);
}

// The files a store's identity hashes: those the loader reads, present ones only.
TEST(DataSpec, FilesAreThoseTheLoaderReads) {
  assay::testing::TempDir dir;
  EXPECT_TRUE(data_spec_files(parse_data_spec("synthetic:users=5")).empty());
  EXPECT_EQ(data_spec_files(parse_data_spec("csv:" + dir.file("r.csv") + ",user=u")),
            std::vector<std::string>{dir.file("r.csv")});
  dir.write("u.data", "1\t1\t5\t0\n");
  const auto spec = parse_data_spec("movielens-100k:" + dir.path().string());
  EXPECT_EQ(data_spec_files(spec), std::vector<std::string>{dir.file("u.data")});
  dir.write("u.item", "1|x|||||0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0\n");
  EXPECT_EQ(data_spec_files(spec),
            (std::vector<std::string>{dir.file("u.data"), dir.file("u.item")}));
  dir.write("ratings.csv", "userId,movieId,rating,timestamp\n");
  EXPECT_EQ(data_spec_files(parse_data_spec("movielens-latest:" + dir.path().string())),
            std::vector<std::string>{dir.file("ratings.csv")});
}

}  // namespace
