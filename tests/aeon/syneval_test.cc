#include "aeon/syneval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace assay::aeon {
namespace {

const std::string kDir = std::string(ASSAY_TEST_DATA_DIR) + "/lm/bert";

nlohmann::json goldens() {
  std::ifstream in(kDir + "/goldens.json");
  return nlohmann::json::parse(in);
}

void expect_probs(const std::vector<double>& got, const nlohmann::json& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i].get<double>(), 1e-4 * want[i].get<double>()) << i;
  }
}

// goldens.json "syneval": masked-token probabilities from the float64 torch reference.
TEST(SynEval, MatchesGoldensAndFormula) {
  auto loaded = lm::BertModel::load_dir(kDir);
  SynEval syn(*loaded.model, loaded.vocab);
  const auto g = goldens()["syneval"];
  std::vector<double> all;
  for (const auto& c : g) {
    expect_probs(syn.sentence_probabilities(c["sentence"]), c["probs"]);
    for (const auto& p : c["probs"]) all.push_back(p.get<double>());
  }
  const auto r = syn.score(g[0]["sentence"].get<std::string>() + " " + g[1]["sentence"].get<std::string>());
  double mn = 1, sum = 0;
  for (double p : all) {
    mn = std::min(mn, p);
    sum += p;
  }
  EXPECT_EQ(r.n_tokens, all.size());
  EXPECT_NEAR(r.nat, 0.6 * mn + 0.4 * sum / static_cast<double>(all.size()), 1e-4 * r.nat);
}

TEST(SynEval, CachesSentencesAcrossMutants) {
  auto loaded = lm::BertModel::load_dir(kDir);
  SynEval syn(*loaded.model, loaded.vocab);
  const auto seed = syn.score("the movie was good. it was funny.");
  EXPECT_EQ(syn.n_sentences_computed(), 2u);
  syn.score("the movie was good. it was boring.");
  syn.score("the movie was good. it was sad.");
  EXPECT_EQ(syn.n_sentences_computed(), 4u);  // "the movie was good." scored once
  const auto again = syn.score("the movie was good. it was funny.");
  EXPECT_EQ(syn.n_sentences_computed(), 4u);
  EXPECT_EQ(again.nat, seed.nat);
}

TEST(SynEval, BatchSplitGivesTheSameProbabilities) {
  auto loaded = lm::BertModel::load_dir(kDir);
  SynEval one(*loaded.model, loaded.vocab);
  SynEvalOptions small;
  small.max_batch = 3;
  SynEval split(*loaded.model, loaded.vocab, small);
  const std::string s = "she is a great actress, and the plot never makes sense.";
  const auto a = one.sentence_probabilities(s), b = split.sentence_probabilities(s);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5 * a[i]);  // GEMM blocking differs with the row count
}

TEST(SynEval, EmptyTextIsNaNAndNoHeadIsAnError) {
  auto loaded = lm::BertModel::load_dir(kDir);
  SynEval syn(*loaded.model, loaded.vocab);
  EXPECT_TRUE(std::isnan(syn.score("   ").nat));
  auto simcse = lm::BertModel::load_dir(kDir + "/simcse");
  EXPECT_THROW(SynEval(*simcse.model, simcse.vocab), core::UsageError);
}

}  // namespace
}  // namespace assay::aeon
