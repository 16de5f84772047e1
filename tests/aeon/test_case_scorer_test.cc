// TestCaseScorer on the offline backends (the CMU trigram, WordNet): what a gate asks for,
// score_generated, is score without the original's SynEval, to the bit.
#include "aeon/test_case_scorer.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using assay::aeon::NgramNormaliser;
using assay::aeon::TestCase;
using assay::aeon::TestCaseScorer;
using assay::aeon::TestCaseScorerOptions;

TEST(TestCaseScorer, ScoreGeneratedIsScoreWithoutTheOriginal) {
  for (const NgramNormaliser n : {NgramNormaliser::kBackoff, NgramNormaliser::kSeparable}) {
    TestCaseScorerOptions o;
    o.ngram_normaliser = n;
    TestCaseScorer full(o), generated_only(o);
    const TestCase c{"My uncle said he was tired.", "My aunt said she was tired.", {}};
    // The gate's scorer never sees the original scored: its windows next to the edit stay
    // unscored, and the generated text's SynEval is the same all the same.
    const auto g = generated_only.score_generated(c);
    const auto s = full.score(c);
    EXPECT_EQ(g.semeval, s.semeval);
    EXPECT_EQ(g.syneval, s.syneval);
    EXPECT_EQ(g.n_patches, s.n_patches);
    EXPECT_TRUE(std::isnan(g.syneval_original));
    EXPECT_FALSE(std::isnan(s.syneval_original));
    EXPECT_NE(s.syneval, s.syneval_original);
    EXPECT_GT(g.semeval, 0.0);
    EXPECT_GT(g.syneval, 0.0);
  }
}

}  // namespace
