#include "aeon/semeval.h"

#include <gtest/gtest.h>

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

// goldens.json "semeval": tools/goldens/tiny_bert.py computes Sim in float64 torch with the
// pooled output of the tiny BERT, for both variants.
TEST(SemEval, MatchesGoldensBothVariants) {
  auto loaded = lm::BertModel::load_dir(kDir);
  const SemEval reference(*loaded.model, loaded.vocab);
  SemEvalOptions paper_opts;
  paper_opts.variant = SemEvalVariant::kPaper;
  const SemEval paper(*loaded.model, loaded.vocab, paper_opts);
  const auto g = goldens()["semeval"];
  ASSERT_EQ(g.size(), 3u);
  for (const auto& c : g) {
    const std::string a = c["original"], b = c["generated"];
    const auto r = reference.score(a, b);
    EXPECT_NEAR(r.sim, c["reference"].get<double>(), 1e-5) << a << " / " << b;
    EXPECT_GE(r.n_patches, 1u);
    EXPECT_NEAR(paper.score(a, b).sim, c["paper"].get<double>(), 1e-5) << a << " / " << b;
  }
}

TEST(SemEval, IdenticalTextsScoreOne) {
  auto loaded = lm::BertModel::load_dir(kDir);
  const SemEval s(*loaded.model, loaded.vocab);
  const auto r = s.score("the movie was good. it was funny.", "the movie was good. it was funny.");
  EXPECT_EQ(r.sim, 1.0);
  EXPECT_EQ(r.n_patches, 0u);
  // Differing only in case: same tokens, no patch, Sim = cos(whole) = 1 up to rounding.
  EXPECT_NEAR(s.score("The movie", "the movie").sim, 1.0, 1e-6);
}

TEST(SemEval, OnlyChangedSentencesMakePatches) {
  auto loaded = lm::BertModel::load_dir(kDir);
  const SemEval s(*loaded.model, loaded.vocab);
  const auto one = s.score("the movie was good. it was funny.", "the movie was good. it was boring.");
  EXPECT_EQ(one.n_patches, 1u);
  EXPECT_LT(one.sim, 1.0);
  const auto two = s.score("the movie was good. it was funny.", "the film was good. it was boring.");
  EXPECT_EQ(two.n_patches, 2u);
}

TEST(SemEval, PoolingChoice) {
  auto loaded = lm::BertModel::load_dir(kDir);
  SemEvalOptions cls;
  cls.pooling = EmbeddingPooling::kCls;
  const SemEval a(*loaded.model, loaded.vocab), b(*loaded.model, loaded.vocab, cls);
  EXPECT_NE(a.score("i liked it", "i hated it").sim, b.score("i liked it", "i hated it").sim);
}

}  // namespace
}  // namespace assay::aeon
