#include "stability/modification_set_file.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "fixture.h"
#include "support/temp_dir.h"

namespace assay::stability {
namespace {

using Kind = recsys::Modification::Kind;

SavedModificationSet example() {
  SavedModificationSet s;
  s.data = "synthetic:users=4";
  s.key = {"funk-svd", Heuristic::kAportfolio, 3, 7};
  s.campaign_seed = 1;
  s.run_seed = 0xfedcba9876543210ull;
  s.model_seed = 3;
  s.k = 10;
  s.oracle = {0.25, 0.5, 0.125, 0.0625};
  s.modifications = {{Kind::kAdd, 3, 0, 2}, {Kind::kRemove, 0, 1, 0}, {Kind::kChange, 2, 3, 1}};
  return s;
}

TEST(ModificationSetFile, RoundTripsThroughLabels) {
  const auto data = testing::tiny_ratings();
  ::assay::testing::TempDir dir;
  const std::string path = dir.file("set.json");
  write_modification_set(path, example(), data);
  const std::string text = ::assay::testing::read_file(path);
  EXPECT_NE(text.find("\"user\": \"4\""), std::string::npos) << text;  // label of dense id 3
  const auto back = read_modification_set(path, data);
  const auto s = example();
  EXPECT_EQ(back.key, s.key);
  EXPECT_EQ(back.run_seed, s.run_seed);
  EXPECT_EQ(back.model_seed, 3u);
  EXPECT_EQ(back.oracle, s.oracle);
  ASSERT_EQ(back.modifications.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(back.modifications[k].kind, s.modifications[k].kind);
    EXPECT_EQ(back.modifications[k].user, s.modifications[k].user);
    EXPECT_EQ(back.modifications[k].item, s.modifications[k].item);
  }
  EXPECT_EQ(back.modifications[0].value, 2.0f);
  EXPECT_EQ(to_json_text(back, data), text);
}

std::string error_of(const std::string& content) {
  const auto data = testing::tiny_ratings();
  ::assay::testing::TempDir dir;
  const std::string path = dir.write("bad.json", content);
  try {
    read_modification_set(path, data);
  } catch (const core::ParseError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.json"), std::string::npos) << what;
    return what;
  }
  ADD_FAILURE() << "no ParseError for " << content;
  return "";
}

std::string with_mods(const std::string& mods) {
  return R"({"format": "assay-rec-mods/1", "data": "x", "algorithm": "funk-svd",
             "heuristic": "AMU", "size": 1, "trial": 0, "campaign_seed": 0, "run_seed": 1,
             "model_seed": 2, "k": 10, "modifications": )" +
         mods + "}";
}

TEST(ModificationSetFile, BadInputNamesFileAndProblem) {
  EXPECT_NE(error_of("{\"format\": ").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("[1, 2]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(error_of(R"({"format": "other/2"})").find("unsupported format 'other/2'"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"format": "assay-rec-mods/1", "data": "x"})").find("missing key 'algorithm'"),
      std::string::npos);
  EXPECT_NE(error_of(with_mods(R"([{"kind": "flip", "user": "1", "item": "1"}])"))
                .find("modification 0: unknown kind 'flip'"),
            std::string::npos);
  EXPECT_NE(error_of(with_mods(R"([{"kind": "remove", "user": "99", "item": "1"}])"))
                .find("user '99' is not in the data"),
            std::string::npos);
  EXPECT_NE(error_of(with_mods(R"([{"kind": "add", "user": "1", "item": "3"},
                                   {"kind": "add", "user": "1", "item": "77", "value": 1}])"))
                .find("modification 0: missing key 'value'"),
            std::string::npos);
  EXPECT_NE(error_of(with_mods(R"([{"kind": "add", "user": "1", "item": "77", "value": 1}])"))
                .find("item '77' is not in the data"),
            std::string::npos);
  // Beyond float range (found by tools/fuzz): would be read as infinity and written as null.
  EXPECT_NE(error_of(with_mods(R"([{"kind": "add", "user": "1", "item": "3", "value": 1e39}])"))
                .find("modification 0: 'value' 1e+39 is out of range for a rating"),
            std::string::npos);
  EXPECT_NE(error_of(with_mods("{}")).find("'modifications' must be an array"), std::string::npos);
}

TEST(ModificationSetFile, MissingFileIsIoError) {
  const auto data = testing::tiny_ratings();
  EXPECT_THROW(read_modification_set("/nonexistent/set.json", data), core::IoError);
}

}  // namespace
}  // namespace assay::stability
