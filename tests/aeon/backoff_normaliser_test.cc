// NgramSynEval's back-off normaliser (on our SphinxTrie) against the reference — the
// enumerating normaliser on sphinxbase itself, the implementation AEON shipped first — on the MR
// annotations and on a corpus of edge cases: every masked probability equal within 1e-9.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "aeon/backoff_window_scorer.h"
#include "aeon/ngram_syneval.h"
#include "aeon/sentence_splitter.h"
#include "aeon/test_case.h"
#include "core/csv_reader.h"
#include "lm/sphinx_model.h"
#include "lm/sphinx_trie.h"
#include "support/shared_data.h"

namespace {

const std::string kMrAnnotations =
    std::string(ASSAY_SHARED_DATA_DIR) + "/aeon-annotations/annotation_rtmr.csv";

using assay::aeon::NgramNormaliser;
using assay::aeon::NgramSynEval;

const assay::lm::SphinxModel& sphinx() {
  static const auto model = assay::lm::SphinxModel::load();
  return *model;
}
const assay::lm::SphinxTrie& trie() {
  static const auto model = assay::lm::SphinxTrie::load(assay::lm::kCmuTrigramPath);
  return *model;
}

constexpr double kTolerance = 1e-9;

// Compares every sentence's probabilities; returns the largest absolute difference.
double compare(const std::vector<std::string>& texts, std::size_t* n_values) {
  NgramSynEval fast(trie(), 0.6, NgramNormaliser::kBackoff);
  NgramSynEval reference(sphinx(), 0.6, NgramNormaliser::kEnumerate);
  EXPECT_EQ(fast.normaliser(), NgramNormaliser::kBackoff);
  EXPECT_EQ(reference.normaliser(), NgramNormaliser::kEnumerate);
  double worst = 0;
  for (const std::string& text : texts) {
    for (const std::string& sentence : assay::aeon::split_sentences(text)) {
      const auto a = fast.sentence_probabilities(sentence);
      const auto b = reference.sentence_probabilities(sentence);
      EXPECT_EQ(a.size(), b.size()) << sentence;
      for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        const double d = std::abs(a[i] - b[i]);
        worst = std::max(worst, d);
        EXPECT_LE(d, kTolerance) << sentence << " word " << i << ": " << a[i] << " vs " << b[i];
      }
      *n_values += a.size();
    }
    const auto ra = fast.score(text), rb = reference.score(text);
    if (!std::isnan(rb.nat)) {
      EXPECT_NEAR(ra.nat, rb.nat, kTolerance) << text;
    }
  }
  return worst;
}

// The reference costs about 0.1 s a window under the sanitizers, so by default every tenth
// record is compared; ASSAY_AEON_FULL_EQUALITY=1 compares all 100 (a minute in a release build).
TEST(BackoffNormaliser, EqualsTheReferenceOnTheMrAnnotations) {
  ASSAY_REQUIRE_FILE(kMrAnnotations);
  assay::core::CsvReader csv(kMrAnnotations);
  const std::size_t ori = csv.column("ori_text"), adv = csv.column("adv_text");
  const char* full_env = std::getenv("ASSAY_AEON_FULL_EQUALITY");
  const bool full = full_env && std::string(full_env) == "1";
  std::vector<std::string> texts;
  std::size_t record = 0;
  while (csv.next()) {
    if (!full && record++ % 10 != 0) continue;
    texts.push_back(assay::aeon::strip_mutation_markers(csv.field(ori)));
    texts.push_back(assay::aeon::strip_mutation_markers(csv.field(adv)));
  }
  ASSERT_EQ(texts.size(), full ? 200u : 20u);
  std::size_t n = 0;
  const double worst = compare(texts, &n);
  EXPECT_GT(n, full ? 3000u : 300u);
  std::cout << "MR annotations: " << n
            << " masked probabilities, largest |fast - reference| = " << worst << "\n";
}

TEST(BackoffNormaliser, EqualsTheReferenceOnEdgeCases) {
  const std::vector<std::string> corpus = {
      "the", "good", "the the the the the", "of the of the and of", "i", "i like it",
      // OOV words at every distance from the scored word
      "qzxqzxq the movie", "the qzxqzxq movie was fine", "the movie qzxqzxq was fine",
      "the movie was qzxqzxq", "qzxqzxq qzxqzxq good qzxqzxq qzxqzxq", "good qzxqzxq",
      // frequent and rare neighbours, sentence markers spelled out
      "zyuganov aardvark the of", "a a a a", "it 's not the end of the world .",
      "<s> the film </s>", "</s>", "the </s> film",
      // real review sentences
      "if i could have looked into my future and saw how bad this movie was , i would go back and "
      "choose to skip it .",
      "an utterly charming and hilarious film that reminded me of the best of the coen brothers .",
      "the story is predictable , the acting wooden and the jokes fall flat ; still , the kids "
      "loved it .",
      "one of the most original american productions this year , you 'll find yourself remembering "
      "this refreshing visit to a sunshine state .",
      "numbers 1 2 3 and 1999 and 42nd street", "don't won't can't shouldn't", "new york new york",
      "the united states of america", "president of the united states said on monday",
      "colorless green ideas sleep furiously", "furiously sleep ideas green colorless",
      "The Movie WAS Good . It Was Also Long !"};
  std::size_t n = 0;
  const double worst = compare(corpus, &n);
  EXPECT_GT(n, 150u);
  std::cout << "edge-case corpus: " << n
            << " masked probabilities, largest |fast - reference| = " << worst << "\n";
}

// The integer score of every word of the vocabulary in a window equals the sum of the three
// sphinxbase look-ups the reference makes.
TEST(BackoffNormaliser, EveryCandidateScoreEqualsSphinxbase) {
  const auto& t = trie();
  const assay::aeon::BackoffWindowScorer scorer(t);
  auto id = [&](const char* w) { return t.find(w); };
  const assay::lm::WordId none = assay::lm::kNoWord;
  const std::vector<std::array<assay::lm::WordId, 5>> windows = {
      {t.begin_sentence(), id("and"), id("there's"), id("the"), id("inimitable")},
      {none, t.begin_sentence(), id("the"), id("movie"), id("was")},
      {id("of"), id("the"), id("best"), id("of"), id("the")},
      {id("the"), id("movie"), id("was"), t.end_sentence(), none},
      {none, none, id("good"), id("film"), t.end_sentence()},
      {id("a"), id("very"), id("good"), none, none},
      {id("zyuganov"), id("aardvark"), id("the"), id("of"), id("and")}};
  for (const auto& win : windows) {
    const std::vector<int> fast = scorer.candidate_scores(win);
    std::size_t bad = 0;
    for (assay::lm::WordId w = 0; w < t.vocabulary_size(); ++w) {
      const std::array<assay::lm::WordId, 2> left{win[0], win[1]}, mid{win[1], w}, right{w, win[3]};
      int ref = sphinx().raw_score(w, left);
      if (win[3] != none) ref += sphinx().raw_score(win[3], mid);
      if (win[3] != none && win[4] != none) ref += sphinx().raw_score(win[4], right);
      if (fast[static_cast<std::size_t>(w)] != ref && ++bad <= 5) {
        ADD_FAILURE() << "window " << win[0] << " " << win[1] << " [" << win[2] << "] " << win[3]
                      << " " << win[4] << ": candidate " << t.word(w) << " "
                      << fast[static_cast<std::size_t>(w)] << " vs " << ref;
      }
    }
    EXPECT_EQ(bad, 0u);
  }
}

// The separable normaliser (closed-form sum over the generic candidates) against the exact
// back-off normaliser on every sentence of the MR annotations: within 2e-4 relative.
TEST(BackoffNormaliser, SeparableIsWithinTwoTenThousandthsOfExact) {
  ASSAY_REQUIRE_FILE(kMrAnnotations);
  assay::core::CsvReader csv(kMrAnnotations);
  const std::size_t ori = csv.column("ori_text"), adv = csv.column("adv_text");
  NgramSynEval exact(trie(), 0.6, NgramNormaliser::kBackoff);
  NgramSynEval separable(trie(), 0.6, NgramNormaliser::kSeparable);
  EXPECT_EQ(separable.normaliser(), NgramNormaliser::kSeparable);
  double worst = 0, sum = 0;
  std::size_t n = 0;
  while (csv.next()) {
    for (const std::size_t col : {ori, adv}) {
      const std::string text = assay::aeon::strip_mutation_markers(csv.field(col));
      for (const std::string& sentence : assay::aeon::split_sentences(text)) {
        const auto a = separable.sentence_probabilities(sentence);
        const auto b = exact.sentence_probabilities(sentence);
        ASSERT_EQ(a.size(), b.size()) << sentence;
        for (std::size_t i = 0; i < a.size(); ++i) {
          const double rel = std::abs(a[i] - b[i]) / b[i];
          worst = std::max(worst, rel);
          sum += rel;
          ++n;
          EXPECT_LE(rel, 2e-4) << sentence << " word " << i << ": " << a[i] << " vs " << b[i];
        }
      }
      const auto ra = separable.score(text), rb = exact.score(text);
      if (!std::isnan(rb.nat)) {
        EXPECT_NEAR(ra.nat, rb.nat, 2e-4 * rb.nat) << text;
      }
    }
  }
  EXPECT_GT(n, 3000u);
  // Not the exact value: a test that the closed form is used at all.
  EXPECT_GT(worst, 0.0);
  std::cout << "separable normaliser: " << n << " masked probabilities, relative error mean "
            << sum / static_cast<double>(n) << ", largest " << worst << "\n";
}

TEST(BackoffNormaliser, FallsBackToEnumerationOffTheTrie) {
  NgramSynEval syn(sphinx());
  EXPECT_EQ(syn.normaliser(), NgramNormaliser::kEnumerate);
}

}  // namespace
