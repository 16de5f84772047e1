// ConceptNetGraph on our handcrafted dump: folding, weights, is_person (k = 2, weight > 1.0,
// early stop), counterparts, and the binary cache (round trip, rejection of damaged caches).
#include "knowledge/conceptnet_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "knowledge/gender_counterpart_finder.h"
#include "knowledge/person_classifier.h"
#include "knowledge_test_paths.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace assay::knowledge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

const std::string kMini = testing::kData + "/conceptnet-mini.csv";

std::string cache_error(const std::string& path) {
  try {
    ConceptNetGraph::load_cache(path);
  } catch (const core::ParseError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::string> terms(const KnowledgeGraph& g, const std::vector<WeightedNode>& v) {
  std::vector<std::string> out;
  for (const auto& n : v)
    out.push_back(g.node_name(n.node) + ":" + std::to_string(n.weight).substr(0, 3));
  return out;
}

// Everything a query can see, to compare a rebuilt or reloaded graph with the original.
std::string fingerprint(const ConceptNetGraph& g) {
  std::string s;
  for (NodeId n = 0; n < g.node_count(); ++n) {
    s += g.node_name(n) + "[";
    for (const auto& x : terms(g, g.hypernyms(n))) s += x + ",";
    for (const auto& x : terms(g, g.hyponyms(n))) s += x + ",";
    for (const auto& x : g.antonyms(g.node_name(n))) s += "!" + x;
    for (const auto& x : g.related_forms(g.node_name(n))) s += "+" + x;
    s += "]";
  }
  return s;
}

TEST(ConceptNetGraph, FoldsSensesAndKeepsTheHeaviestDuplicate) {
  const auto g = ConceptNetGraph::build(kMini);
  EXPECT_EQ(g->dump_stats().n_lines, 22u);
  EXPECT_EQ(g->dump_stats().n_not_english, 2u);
  EXPECT_EQ(g->dump_stats().n_other_relation, 1u);
  EXPECT_EQ(g->edge_count(), 17u);  // 19 kept assertions - 1 duplicate - 1 self-loop
  const auto actor = g->find_node("Actor");
  ASSERT_TRUE(actor);
  EXPECT_THAT(terms(*g, g->hypernyms(*actor)), ElementsAre("person:3.5"));
  EXPECT_THAT(terms(*g, g->hyponyms(*actor)), ElementsAre("actress:2.0"));
  EXPECT_TRUE(g->find_node("ice cream"));
  EXPECT_THAT(g->antonyms("queen"), ElementsAre("king"));
  EXPECT_THAT(g->related_forms("actress"), UnorderedElementsAre("actresses", "actor"));
  EXPECT_EQ(g->gloss(*actor), "");
  EXPECT_TRUE(g->noun_senses("acteur").empty());  // French node not kept
}

TEST(ConceptNetGraph, IsPersonWithReferenceSettings) {
  const auto g = ConceptNetGraph::build(kMini);
  const PersonClassifier pc(*g, default_person_options(*g));
  EXPECT_TRUE(pc.is_person("actor"));
  EXPECT_TRUE(pc.is_person("actress"));      // 2 hops
  EXPECT_TRUE(pc.is_person("intern"));       // employee is an indicator
  EXPECT_FALSE(pc.is_person("understudy"));  // 3 hops > k = 2
  EXPECT_FALSE(pc.is_person("puppet"));      // weight 1.0 is not > 1.0
  EXPECT_FALSE(pc.is_person("android"));     // robot is an early stop
  EXPECT_FALSE(pc.is_person("ice_cream"));
  const GenderCounterpartFinder f(*g, pc);
  EXPECT_EQ(f.gender_of("king"), Gender::kMale);
  EXPECT_EQ(f.gender_of("actress"), Gender::kFemale);
  ASSERT_FALSE(f.counterparts("king").empty());
  EXPECT_EQ(f.counterparts("king")[0].word, "queen");
  ASSERT_FALSE(f.counterparts("actress").empty());
  EXPECT_EQ(f.counterparts("actress")[0].word, "actor");
  EXPECT_EQ(f.counterparts("actress")[0].evidence, CounterpartEvidence::kMorphology);
}

TEST(ConceptNetGraph, CacheRoundTripAndOpenReusesIt) {
  assay::testing::TempDir dir;
  const auto built = ConceptNetGraph::build(kMini);
  const std::string cache = dir.file("mini.cache");
  built->write_cache(cache);
  EXPECT_EQ(fingerprint(*ConceptNetGraph::load_cache(cache)), fingerprint(*built));
  // Same dump -> byte-identical cache.
  ConceptNetGraph::build(kMini)->write_cache(dir.file("again.cache"));
  EXPECT_EQ(assay::testing::read_file(cache), assay::testing::read_file(dir.file("again.cache")));

  const std::string dump = dir.file("dump.csv");
  std::filesystem::copy_file(kMini, dump);
  const auto first = ConceptNetGraph::open(dump);
  ASSERT_TRUE(std::filesystem::exists(dump + ".assay-cache"));
  EXPECT_EQ(fingerprint(*first), fingerprint(*built));
  // The second open reads the cache: damaging it makes open fail.
  std::string bytes = assay::testing::read_file(dump + ".assay-cache");
  bytes[bytes.size() - 1] ^= 0x5a;
  std::ofstream(dump + ".assay-cache", std::ios::binary) << bytes;
  EXPECT_THROW(ConceptNetGraph::open(dump), core::ParseError);
}

TEST(ConceptNetGraph, DamagedCachesAreRejected) {
  assay::testing::TempDir dir;
  const std::string good = dir.file("good.cache");
  ConceptNetGraph::build(kMini)->write_cache(good);
  const std::string bytes = assay::testing::read_file(good);
  auto variant = [&](const std::string& name, std::string content) {
    std::ofstream(dir.file(name), std::ios::binary) << content;
    return cache_error(dir.file(name));
  };
  EXPECT_THAT(variant("short.cache", bytes.substr(0, 40)),
              HasSubstr("shorter than the 64-byte header"));
  EXPECT_THAT(variant("truncated.cache", bytes.substr(0, bytes.size() - 8)),
              HasSubstr("(truncated)"));
  EXPECT_THAT(variant("truncated.cache", bytes.substr(0, bytes.size() - 8)),
              HasSubstr("truncated.cache at byte"));
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_THAT(variant("magic.cache", magic), HasSubstr("bad magic"));
  std::string version = bytes;
  version[8] = 9;
  EXPECT_THAT(variant("version.cache", version), HasSubstr("version 9, expected 1"));
  std::string flipped = bytes;
  flipped[100] ^= 0x01;
  EXPECT_THAT(variant("flipped.cache", flipped), HasSubstr("CRC-32 mismatch"));
  // A structurally wrong payload with a valid CRC: an edge pointing past the last node.
  std::uint32_t n_nodes = 0, n_edges = 0;
  std::uint64_t string_bytes = 0;
  std::memcpy(&n_nodes, bytes.data() + 16, 4);
  std::memcpy(&n_edges, bytes.data() + 20, 4);
  std::memcpy(&string_bytes, bytes.data() + 24, 8);
  std::string bad_edge = bytes;
  const std::size_t first_edge = 64 + 4 * (n_nodes + 1) + (string_bytes + 3) / 4 * 4;
  const std::uint32_t huge = n_nodes + 7;
  std::memcpy(bad_edge.data() + first_edge, &huge, 4);
  const auto crc = static_cast<std::uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bad_edge.data() + 64),
            static_cast<uInt>(bad_edge.size() - 64)));
  std::memcpy(bad_edge.data() + 48, &crc, 4);
  EXPECT_THAT(variant("edge.cache", bad_edge),
              HasSubstr("at byte " + std::to_string(first_edge) +
                        ": invalid ConceptNet cache: edge node index out of range"));
  EXPECT_GT(n_edges, 0u);
  // More CRC-valid structural damage: an unknown relation code, unsorted terms.
  auto with_crc = [](std::string b) {
    const auto c = static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0),
                                                    reinterpret_cast<const Bytef*>(b.data() + 64),
                                                    static_cast<uInt>(b.size() - 64)));
    std::memcpy(b.data() + 48, &c, 4);
    return b;
  };
  std::string bad_relation = bytes;
  const std::uint32_t relation = 9;
  std::memcpy(bad_relation.data() + first_edge + 12, &relation, 4);
  EXPECT_THAT(variant("relation.cache", with_crc(bad_relation)),
              HasSubstr("unknown relation code"));
  std::string unsorted = bytes;
  std::swap(unsorted[64 + 4 * (n_nodes + 1)], unsorted[64 + 4 * (n_nodes + 1) + string_bytes - 1]);
  EXPECT_THAT(variant("unsorted.cache", with_crc(unsorted)),
              HasSubstr("terms not strictly sorted"));
}

TEST(ConceptNetGraph, FormatSampleThroughTheCache) {
  ASSAY_REQUIRE_FILE(testing::kShared + "/conceptnet-format-sample/assertions.csv");
  assay::testing::TempDir dir;
  const auto g =
      ConceptNetGraph::build(testing::kShared + "/conceptnet-format-sample/assertions.csv");
  g->write_cache(dir.file("sample.cache"));
  const auto reloaded = ConceptNetGraph::load_cache(dir.file("sample.cache"));
  EXPECT_EQ(fingerprint(*reloaded), fingerprint(*g));
  EXPECT_THAT(reloaded->related_forms("people"), ::testing::Contains("person"));
  EXPECT_THAT(reloaded->antonyms("test"), UnorderedElementsAre("breeze", "recess"));
}

}  // namespace
}  // namespace assay::knowledge
