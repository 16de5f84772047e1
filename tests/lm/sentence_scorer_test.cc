#include "lm/sentence_scorer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "lm/arpa_model.h"

namespace assay::lm {
namespace {

constexpr double kLn10 = std::numbers::ln10;

class ScorerOnTinyArpa : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = ArpaModel::load(std::string(ASSAY_TEST_DATA_DIR) + "/lm/tiny.arpa");
  }
  std::unique_ptr<ArpaModel> model_;
};

// log10: P(a|<s>) -0.3, P(b|<s> a) -0.1, P(</s>|a b) = -0.25 - 0.4.
TEST_F(ScorerOnTinyArpa, SentenceWithBoundaries) {
  const auto s = score_sentence(*model_, split_words("a b"));
  EXPECT_EQ(s.n_tokens, 3u);
  EXPECT_EQ(s.n_oov, 0u);
  ASSERT_EQ(s.tokens.size(), 3u);
  EXPECT_EQ(s.tokens[2].id, model_->end_sentence());
  EXPECT_NEAR(s.log_prob, -1.05 * kLn10, 1e-5);
  const double h = 1.05 * kLn10 / 3;
  EXPECT_NEAR(s.cross_entropy(), h, 1e-5);
  EXPECT_NEAR(s.fluency(), 1 / (1 + h), 1e-6);
}

TEST_F(ScorerOnTinyArpa, WithoutBoundaries) {
  ScoreOptions o;
  o.sentence_boundaries = false;
  const auto s = score_sentence(*model_, split_words("a b"), o);
  EXPECT_EQ(s.n_tokens, 2u);
  EXPECT_NEAR(s.log_prob, (-0.7 - 0.5) * kLn10, 1e-5);  // p(a) + p(a b)
}

// Skip: P(a|<s>) -0.3, zz skipped and the history restarts, P(b) -0.8, P(</s>|b) -0.4.
TEST_F(ScorerOnTinyArpa, OovSkipped) {
  const auto s = score_sentence(*model_, split_words("a zz b"));
  EXPECT_EQ(s.n_tokens, 3u);
  EXPECT_EQ(s.n_oov, 1u);
  EXPECT_TRUE(s.tokens[1].oov);
  EXPECT_FALSE(s.tokens[1].scored);
  EXPECT_NEAR(s.log_prob, -1.5 * kLn10, 1e-5);
}

// Unknown token: -0.3, P(<unk>|<s> a) = -0.4 - 0.3 - 1.0, P(b|a <unk>) = -0.8,
// P(</s>|<unk> b) = -0.4.
TEST_F(ScorerOnTinyArpa, OovAsUnknownToken) {
  ScoreOptions o;
  o.oov = OovPolicy::kUnknownToken;
  const auto s = score_sentence(*model_, split_words("a zz b"), o);
  EXPECT_EQ(s.n_tokens, 4u);
  EXPECT_EQ(s.n_oov, 1u);
  EXPECT_TRUE(s.tokens[1].scored);
  EXPECT_NEAR(s.log_prob, -3.2 * kLn10, 1e-5);
  // An OOV word lowers fluency under this policy but not under kSkip.
  EXPECT_LT(s.fluency(), score_sentence(*model_, split_words("a zz b")).fluency());
}

TEST_F(ScorerOnTinyArpa, NothingScoredGivesNan) {
  ScoreOptions o;
  o.sentence_boundaries = false;
  const auto s = score_sentence(*model_, split_words("zz"), o);
  EXPECT_EQ(s.n_tokens, 0u);
  EXPECT_TRUE(std::isnan(s.fluency()));
}

TEST(SplitWords, SplitsOnAsciiWhitespace) {
  EXPECT_EQ(split_words("  the\tcat \r\n sat "), (std::vector<std::string>{"the", "cat", "sat"}));
  EXPECT_TRUE(split_words(" \t ").empty());
}

}  // namespace
}  // namespace assay::lm
