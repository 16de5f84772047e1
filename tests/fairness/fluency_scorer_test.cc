#include "fairness/fluency_scorer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fairness_test_support.h"
#include "lm/sentence_scorer.h"

namespace assay::fairness {
namespace {

TEST(FluencyScorer, FullScoreEqualsSentenceScorerAndWindowsEqualFullScores) {
  const auto& lm = *testing::default_resources().lm;
  const FluencyScorer scorer(lm);
  lm::ScoreOptions o;
  o.oov = lm::OovPolicy::kUnknownToken;
  const std::vector<std::string> words = {"the", "actor", "was",  "brilliant", "in",   "qzxv",
                                          "and", "the",   "film", "was",       "long", "."};
  const auto s = scorer.score(words);
  const auto ref = lm::score_sentence(lm, words, o);
  EXPECT_NEAR(s.log_prob, ref.log_prob, 1e-9);
  EXPECT_EQ(s.n_tokens(), ref.n_tokens);
  EXPECT_NEAR(s.fluency(), ref.fluency(), 1e-12);
  // Every replacement / insertion / deletion window against a full rescoring.
  const std::vector<std::vector<std::string>> replacements = {
      {}, {"actress"}, {"female", "actor"}, {"a", "male", "nurse"}, {"zzqq"}};
  for (std::size_t b = 0; b <= words.size(); ++b) {
    for (std::size_t e = b; e <= std::min(words.size(), b + 2); ++e) {
      for (const auto& rep : replacements) {
        std::vector<std::string> full(words.begin(), words.begin() + static_cast<long>(b));
        full.insert(full.end(), rep.begin(), rep.end());
        full.insert(full.end(), words.begin() + static_cast<long>(e), words.end());
        const double want = scorer.score(full).fluency();
        EXPECT_NEAR(scorer.rescore(s, b, e, rep), want, 1e-12) << b << " " << e;
      }
    }
  }
  EXPECT_LT(scorer.unigram_log_prob("zzqqxx"), scorer.unigram_log_prob("the"));
}

}  // namespace
}  // namespace assay::fairness
