// `assay kg query` through the real binary: JSON lines for both backends, exit 2 with the
// message for bad input (unknown backend or relation, missing WordNet, broken ConceptNet line).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <vector>

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

// --pos chooses the part of speech of the lexical relations: "act" has a derivation to "actor"
// as a verb only; by default the sense relations (nouns only) are left out for another part of
// speech, and asking for one is a usage error.
TEST(KgQueryCommand, PartOfSpeechForLexicalRelations) {
  TempDir dir;
  const std::string base = "kg query --word act --wordnet-dir " + kMiniWordNet;
  auto r = run_assay(dir, base + " --relation forms");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out).at(0)["words"], nlohmann::json::array());
  r = run_assay(dir, base + " --relation forms --pos verb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out).at(0)["words"], nlohmann::json::array({"actor"}));
  r = run_assay(dir, base + " --pos verb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto v = lines(r.out);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0]["relation"], "antonyms");
  EXPECT_EQ(v[1]["relation"], "forms");
  r = run_assay(dir, base + " --pos adj --relation isa");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--relation isa is a relation of noun senses"));
  r = run_assay(dir, base + " --pos pronoun");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--pos must be noun, verb, adj or adv; got 'pronoun'"));
}

// The real WordNet answers antonyms of verbs, adjectives and adverbs.
TEST(KgQueryCommand, AntonymsOfEveryPartOfSpeechFromWordNet) {
  if (!std::filesystem::exists("/usr/share/wordnet/data.verb")) {
    GTEST_SKIP() << "/usr/share/wordnet is absent (Debian package wordnet-base)";
  }
  TempDir dir;
  for (const auto& [pos, word, antonym] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"verb", "increase", "decrease"},
           {"adj", "good", "bad"},
           {"adv", "slowly", "quickly"}}) {
    SCOPED_TRACE(pos);
    const auto r = run_assay(dir, "kg query --word " + word + " --relation antonyms --pos " + pos);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto v = lines(r.out);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_THAT(v[0]["words"].get<std::vector<std::string>>(), ::testing::Contains(antonym));
  }
}

TEST(KgQueryCommand, BadInputExitsTwoWithTheReason) {
  TempDir dir;
  auto r = run_assay(dir, "kg query --word x --kg neo4j");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("knowledge graph: expected 'wordnet' or 'conceptnet:FILE'"));
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
