// Rankings against gensim's KeyedVectors.most_similar (goldens from
// tools/goldens/vectors_gensim.py), BLAS against a plain loop, batch against single queries.
#include "vectors/similarity_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/rng.h"
#include "support/shared_data.h"
#include "vectors/vector_reader.h"

namespace assay::vectors {
namespace {

const std::string kData = std::string(ASSAY_TEST_DATA_DIR) + "/vectors/";
const std::string kShared = std::string(ASSAY_SHARED_DATA_DIR) + "/";

// Cosines agree to float rounding; where the words differ the two scores must be an exact
// tie up to that rounding (gensim leaves tie order unspecified).
constexpr double kScoreTolerance = 2e-6;

struct Agreement {
  std::size_t n_queries = 0;
  std::size_t n_ranks = 0;
  std::size_t n_tie_swaps = 0;
  double max_difference = 0;
};

void expect_same_ranking(const EmbeddingMatrix& m, const std::vector<Neighbor>& mine,
                         const nlohmann::json& expected, const std::string& label,
                         Agreement& agreement) {
  ASSERT_EQ(mine.size(), expected.size()) << label;
  ++agreement.n_queries;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const std::string gword = expected[i][0];
    const double gscore = expected[i][1];
    EXPECT_NEAR(mine[i].similarity, gscore, kScoreTolerance) << label << " rank " << i + 1;
    ++agreement.n_ranks;
    agreement.max_difference =
        std::max(agreement.max_difference, std::abs(mine[i].similarity - gscore));
    if (m.word(mine[i].index) != gword) {
      // A swap of tied words: gensim's word sits next to this rank in our list (or just past
      // its end), and its score equals ours at this rank.
      ++agreement.n_tie_swaps;
      bool adjacent = i + 1 == mine.size();
      for (std::size_t j = i > 0 ? i - 1 : 0; j <= i + 1 && j < mine.size(); ++j) {
        adjacent = adjacent || m.word(mine[j].index) == gword;
      }
      EXPECT_TRUE(adjacent) << label << " rank " << i + 1 << ": " << m.word(mine[i].index) << " vs "
                            << gword;
      EXPECT_NEAR(mine[i].similarity, gscore, kScoreTolerance) << label;
    }
  }
}

SimilarityQuery query_of(const nlohmann::json& q) {
  return SimilarityQuery{q["positive"].get<std::vector<std::string>>(),
                         q["negative"].get<std::vector<std::string>>()};
}

SearchOptions options_of(const nlohmann::json& q) {
  SearchOptions o;
  o.top_k = q["topn"];
  o.restrict_to = q["restrict"].is_null() ? 0 : q["restrict"].get<std::size_t>();
  return o;
}

class GensimGoldens : public ::testing::TestWithParam<std::size_t> {};

TEST_P(GensimGoldens, RankingsEqualMostSimilar) {
  std::ifstream in(kData + "gensim_goldens.json");
  const auto g = nlohmann::json::parse(in)["files"][GetParam()];
  const std::string rel = g["file"];
  const std::string path = rel.starts_with("word-vectors/") ? kShared + rel : kData + rel;
  ASSAY_REQUIRE_FILE(path);
  const auto m = read_vectors(path, parse_vector_format(g["format"].get<std::string>()));
  ASSERT_EQ(m.size(), g["n_words"].get<std::size_t>());
  Agreement single, batched;
  std::vector<SimilarityQuery> queries;
  std::vector<SearchOptions> options;
  for (const auto& q : g["queries"]) {
    const std::string label = q.dump();
    const auto mine = most_similar(m, query_of(q), options_of(q));
    expect_same_ranking(m, mine, q["results"], label, single);
    queries.push_back(query_of(q));
    options.push_back(options_of(q));
  }
  // The batched path on the queries that share options (the unrestricted top 10).
  std::vector<SimilarityQuery> same;
  std::vector<nlohmann::json> same_expected;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    if (options[i].restrict_to == 0) {
      same.push_back(queries[i]);
      same_expected.push_back(g["queries"][i]["results"]);
    }
  }
  SearchOptions o;
  o.batch_block = 7;  // several blocks, the last one partial
  const auto all = most_similar_batch(m, same, o);
  ASSERT_EQ(all.size(), same.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    expect_same_ranking(m, all[i], same_expected[i],
                        std::string("batch ").append(std::to_string(i)), batched);
  }
  EXPECT_GT(single.n_queries, 0u);
  RecordProperty("queries", static_cast<int>(single.n_queries));
  RecordProperty("tie_swaps", static_cast<int>(single.n_tie_swaps));
  RecordProperty("ranks", static_cast<int>(single.n_ranks));
  RecordProperty("max_difference_e9", static_cast<int>(single.max_difference * 1e9));
  RecordProperty("batch_max_difference_e9", static_cast<int>(batched.max_difference * 1e9));
}

INSTANTIATE_TEST_SUITE_P(GloveGoogleNewsTiny, GensimGoldens, ::testing::Values(0u, 1u, 2u));

// Appending (not "w" + std::to_string) avoids a GCC 12 -Wrestrict false positive.
std::string name(std::size_t i) {
  std::string s = "w";
  s += std::to_string(i);
  return s;
}

EmbeddingMatrix random_matrix(std::size_t n, std::size_t d, std::uint64_t seed) {
  core::Rng rng(seed);
  std::vector<std::string> words;
  std::vector<float> values(n * d);
  for (std::size_t i = 0; i < n; ++i) words.push_back(name(i));
  for (float& v : values) v = static_cast<float>(rng.normal());
  return EmbeddingMatrix(std::move(words), std::move(values), d);
}

TEST(MostSimilar, BlasEqualsAPlainLoop) {
  const auto m = random_matrix(500, 17, 7);
  const auto q = analogy_query("w1", "w2", "w3");
  SearchOptions o;
  o.top_k = 25;
  const auto mine = most_similar(m, q, o);
  // Reference: mean of unit vectors in double, every cosine in double, full sort.
  std::vector<double> mean(17, 0.0);
  for (auto [w, sign] : {std::pair{2, 1.0}, {3, 1.0}, {1, -1.0}}) {
    for (std::size_t k = 0; k < 17; ++k) mean[k] += sign * m.row(w)[k] / 3;
  }
  double len = 0;
  for (double v : mean) len += v * v;
  len = std::sqrt(len);
  std::vector<std::pair<double, std::size_t>> ref;
  for (std::size_t j = 0; j < m.size(); ++j) {
    if (j >= 1 && j <= 3) continue;
    double s = 0;
    for (std::size_t k = 0; k < 17; ++k) s += m.row(j)[k] * mean[k] / len;
    ref.emplace_back(-s, j);
  }
  std::sort(ref.begin(), ref.end());
  ASSERT_EQ(mine.size(), 25u);
  for (std::size_t i = 0; i < 25; ++i) {
    EXPECT_EQ(mine[i].index, ref[i].second) << i;
    EXPECT_NEAR(mine[i].similarity, -ref[i].first, 1e-5);
  }
}

TEST(MostSimilar, BatchEqualsSingleAndRestrictLimitsRows) {
  const auto m = random_matrix(3000, 32, 11);
  std::vector<SimilarityQuery> queries;
  for (int i = 0; i < 50; ++i) {
    queries.push_back(i % 2 ? neighbor_query(name(i * 7))
                            : analogy_query(name(i), name(i + 1), name(2900 + i)));
  }
  SearchOptions o;
  o.restrict_to = 1000;
  o.batch_block = 16;
  const auto batch = most_similar_batch(m, queries, o);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto one = most_similar(m, queries[i], o);
    ASSERT_EQ(one.size(), batch[i].size());
    for (std::size_t r = 0; r < one.size(); ++r) {
      EXPECT_LT(one[r].index, 1000u);
      EXPECT_NEAR(one[r].similarity, batch[i][r].similarity, 1e-6);  // differing ids: a tie
    }
  }
}

// Bit patterns of a result, for exact comparison.
std::vector<std::pair<std::size_t, std::uint32_t>> bits(const std::vector<Neighbor>& r) {
  std::vector<std::pair<std::size_t, std::uint32_t>> out;
  for (const auto& nb : r) {
    std::uint32_t b = 0;
    std::memcpy(&b, &nb.similarity, sizeof b);
    out.emplace_back(nb.index, b);
  }
  return out;
}

TEST(MostSimilarMany, AQueryGetsTheSameBitsAloneAndInAnyBatch) {
  // 301 dimensions: full chunks of 8 and a partial one; 1000 rows: full blocks and a partial one.
  const auto m = random_matrix(1000, 301, 19);
  std::vector<SimilarityQuery> queries;
  for (int i = 0; i < 23; ++i) {
    queries.push_back(i % 3 ? analogy_query(name(i), name(i + 40), name(500 + i))
                            : neighbor_query(name(i * 11)));
  }
  SearchOptions o;
  o.top_k = 10;
  const auto all = most_similar_many(m, queries, o);
  ASSERT_EQ(all.size(), queries.size());
  std::vector<SimilarityQuery> reversed(queries.rbegin(), queries.rend());
  const auto back = most_similar_many(m, reversed, o);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto alone = most_similar_many(m, std::span(&queries[i], 1), o);
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_EQ(bits(alone[0]), bits(all[i])) << i;
    EXPECT_EQ(bits(back[queries.size() - 1 - i]), bits(all[i])) << i;
    // In a batch of 5 at every offset it can take (the groups of 4 fall differently).
    for (std::size_t off = 0; off < 5 && off <= i; ++off) {
      if (i - off + 5 > queries.size()) continue;
      const auto five = most_similar_many(m, std::span(queries).subspan(i - off, 5), o);
      EXPECT_EQ(bits(five[off]), bits(all[i])) << i << " at " << off;
    }
    // The BLAS search: same neighbours, cosines within 1e-5.
    const auto blas = most_similar(m, queries[i], o);
    ASSERT_EQ(blas.size(), all[i].size());
    for (std::size_t r = 0; r < blas.size(); ++r) {
      EXPECT_NEAR(blas[r].similarity, all[i][r].similarity, 1e-5) << i << " " << r;
      if (std::abs(blas[r].similarity - all[i][r].similarity) > 1e-5f) continue;
      EXPECT_EQ(blas[r].index, all[i][r].index) << i << " " << r;
    }
  }
}

TEST(MostSimilarMany, RestrictLimitsRowsAndUnknownWordsThrow) {
  const auto m = random_matrix(3000, 32, 11);
  std::vector<SimilarityQuery> queries = {neighbor_query("w5"), analogy_query("w1", "w2", "w2999")};
  SearchOptions o;
  o.restrict_to = 1000;
  o.top_k = 20;
  const auto many = most_similar_many(m, queries, o);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto one = most_similar(m, queries[i], o);
    ASSERT_EQ(one.size(), many[i].size());
    for (std::size_t r = 0; r < one.size(); ++r) {
      EXPECT_LT(many[i][r].index, 1000u);
      EXPECT_NEAR(one[r].similarity, many[i][r].similarity, 1e-5);
    }
  }
  queries.push_back(neighbor_query("nope"));
  EXPECT_THROW(most_similar_many(m, queries, o), core::UsageError);
  EXPECT_TRUE(most_similar_many(m, std::span<const SimilarityQuery>(), o).empty());
}

TEST(MostSimilar, ExcludesQueryWordsAndRejectsUnknownOnes) {
  const auto m = random_matrix(50, 4, 3);
  SearchOptions o;
  o.top_k = 49;
  const auto all = most_similar(m, neighbor_query("w0"), o);
  EXPECT_EQ(all.size(), 49u);
  for (const auto& nb : all) EXPECT_NE(nb.index, 0u);
  try {
    most_similar(m, analogy_query("w0", "nope", "w1"));
    FAIL();
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("word 'nope' is not in the vocabulary"),
              std::string::npos);
  }
  EXPECT_THROW(most_similar(m, SimilarityQuery{}), core::UsageError);
}

}  // namespace
}  // namespace assay::vectors
