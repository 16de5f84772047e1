// `assay kg query` through the real binary: JSON lines for both backends, exit 2 with the
// message for bad input (unknown backend or relation, missing WordNet, broken ConceptNet line).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "knowledge_test_paths.h"
#include "support/temp_dir.h"

namespace {

using assay::knowledge::testing::kData;
using assay::knowledge::testing::kMiniWordNet;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

std::vector<nlohmann::json> lines(const std::string& out) {
  std::vector<nlohmann::json> v;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) v.push_back(nlohmann::json::parse(l));
  return v;
}

TEST(KgQueryCommand, WordNetPersonAndCounterpart) {
  TempDir dir;
  const auto r = run_assay(dir, "kg query --word actress --wordnet-dir " + kMiniWordNet +
                                    " --relation person --relation counterpart --relation isa");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto v = lines(r.out);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0]["relation"], "person");
  EXPECT_EQ(v[0]["is_person"], true);
  EXPECT_EQ(v[0]["path"].back(), "person.n.01");
  EXPECT_EQ(v[1]["gender"], "female");
  EXPECT_EQ(v[1]["counterparts"][0]["word"], "actor");
  EXPECT_EQ(v[2]["targets"][0]["node"], "actor.n.01");
}

TEST(KgQueryCommand, ConceptNetBackendWritesItsCache) {
  TempDir dir;
  const std::string cache = dir.file("mini.cache");
  const auto r =
      run_assay(dir, "kg query --word king --kg conceptnet:" + kData +
                         "/conceptnet-mini.csv --kg-cache " + cache + " --relation antonyms");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto v = lines(r.out);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["backend"], "conceptnet");
  EXPECT_EQ(v[0]["words"], nlohmann::json::array({"queen"}));
  EXPECT_FALSE(assay::testing::read_file(cache).empty());
}

TEST(KgQueryCommand, BadInputExitsTwoWithTheReason) {
  TempDir dir;
  auto r = run_assay(dir, "kg query --word x --kg neo4j");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--kg must be 'wordnet' or 'conceptnet:FILE'"));
  r = run_assay(dir, "kg query --word x --wordnet-dir " + kMiniWordNet + " --relation synonyms");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--relation must be one of"));
  r = run_assay(dir, "kg query --word x --wordnet-dir " + dir.file("nowhere"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("install the Debian package wordnet-base"));
  r = run_assay(dir, "kg query --word x --kg conceptnet:" + kData +
                         "/conceptnet-broken/four-fields.csv --kg-cache " + dir.file("c.cache"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("four-fields.csv:2: expected 5 tab-separated fields"));
  EXPECT_TRUE(r.out.empty());
  EXPECT_FALSE(std::filesystem::exists(dir.file("c.cache")));
}

}  // namespace
