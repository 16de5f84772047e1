// NgramSynEval on the real CMU trigram (Debian pocketsphinx-en-us).
#include "aeon/ngram_syneval.h"

#include <gtest/gtest.h>

#include <cmath>

#include "lm/sphinx_model.h"

namespace {

using assay::aeon::NgramSynEval;

const assay::lm::SphinxModel& cmu() {
  static const auto model = assay::lm::SphinxModel::load();
  return *model;
}

TEST(NgramSynEval, WordsAreLowerCasedWithoutPunctuation) {
  EXPECT_EQ(NgramSynEval::words("The Movie , was GOOD ."),
            (std::vector<std::string>{"the", "movie", "was", "good"}));
  EXPECT_EQ(NgramSynEval::words("it 's -- fine"), (std::vector<std::string>{"it", "'s", "fine"}));
  // Punctuation stuck to a word, as untokenised text has it, is not part of the word.
  EXPECT_EQ(NgramSynEval::words("The room was clean. (He was busy,) \"Fine!\" it's 'ok' 's"),
            (std::vector<std::string>{"the", "room", "was", "clean", "he", "was", "busy", "fine",
                                      "it's", "ok", "'s"}));
}

// Untokenised text scores as its tokenised form: "busy," is the word "busy", not OOV.
TEST(NgramSynEval, PunctuationStuckToWordsScoresAsTokenised) {
  NgramSynEval syn(cmu());
  const auto raw = syn.score("My aunt was busy, so the room was clean.");
  const auto tokenised = syn.score("my aunt was busy , so the room was clean .");
  EXPECT_EQ(raw.n_tokens, 9u);
  EXPECT_EQ(raw.n_tokens, tokenised.n_tokens);
  EXPECT_DOUBLE_EQ(raw.nat, tokenised.nat);
}

TEST(NgramSynEval, NaturalSentenceScoresAboveWordSalad) {
  NgramSynEval syn(cmu());
  const auto natural = syn.score("the movie was very good");
  const auto salad = syn.score("movie the good very was");
  EXPECT_EQ(natural.n_tokens, 5u);
  EXPECT_GT(natural.nat, salad.nat);
  EXPECT_GT(natural.mean_prob, salad.mean_prob);
  // An odd substitution lowers the probability at its position.
  const auto odd = syn.score("the movie was very car");
  EXPECT_GT(natural.nat, odd.nat);
}

TEST(NgramSynEval, ProbabilitiesAreNormalisedAndMatchTheFormula) {
  NgramSynEval syn(cmu());
  const auto probs = syn.sentence_probabilities("i like it");
  ASSERT_EQ(probs.size(), 3u);
  for (double p : probs) {
    EXPECT_GT(p, 0.0);
    EXPECT_LT(p, 1.0);
  }
  const auto r = syn.score("i like it");
  const double lo = std::min({probs[0], probs[1], probs[2]});
  const double mean = (probs[0] + probs[1] + probs[2]) / 3;
  EXPECT_DOUBLE_EQ(r.nat, 0.6 * lo + 0.4 * mean);
}

TEST(NgramSynEval, OovWordsAreNotScoredAndEmptyTextIsNan) {
  NgramSynEval syn(cmu());
  EXPECT_EQ(syn.score("i like qzxqzxq").n_tokens, 2u);
  EXPECT_TRUE(std::isnan(syn.score(" . , !").nat));
}

TEST(NgramSynEval, SentencesAreCached) {
  NgramSynEval syn(cmu());
  const auto a = syn.sentence_probabilities("good film");
  const auto b = syn.sentence_probabilities("good film");
  EXPECT_EQ(a, b);
}

TEST(NgramSynEval, WindowCacheGivesTheFreshValuesBitwise) {
  NgramSynEval warm(cmu());
  warm.sentence_probabilities("the movie was very good and fun");
  const auto cached = warm.sentence_probabilities("the movie was very bad and fun");
  NgramSynEval cold(cmu());
  EXPECT_EQ(cached, cold.sentence_probabilities("the movie was very bad and fun"));
}

}  // namespace
