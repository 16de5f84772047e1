// NgramSynEval's back-off normaliser (on our SphinxTrie) against the reference — the
// enumerating normaliser on sphinxbase itself, the implementation AEON shipped first — on the MR
// annotations and on a corpus of edge cases: every masked probability equal within 1e-9.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <thread>
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

using Window = std::array<assay::lm::WordId, 5>;

// The windows of a text, as NgramSynEval forms them, appended to `out`.
void add_windows_of(const std::string& text, std::vector<Window>& out) {
  const auto& t = trie();
  for (const std::string& sentence : assay::aeon::split_sentences(text)) {
    std::vector<assay::lm::WordId> s{t.begin_sentence()};
    for (const std::string& w : NgramSynEval::words(sentence)) s.push_back(t.find(w));
    s.push_back(t.end_sentence());
    for (std::size_t p = 1; p + 1 < s.size(); ++p) {
      if (s[p] == assay::lm::kNoWord) continue;
      out.push_back({p >= 2 ? s[p - 2] : assay::lm::kNoWord, s[p - 1], s[p], s[p + 1],
                     p + 2 < s.size() ? s[p + 2] : assay::lm::kNoWord});
    }
  }
}

// The windows of every `step`-th MR annotation record (both texts).
std::vector<Window> mr_windows(std::size_t step) {
  assay::core::CsvReader csv(kMrAnnotations);
  const std::size_t ori = csv.column("ori_text"), adv = csv.column("adv_text");
  std::vector<Window> out;
  std::size_t record = 0;
  while (csv.next()) {
    if (record++ % step != 0) continue;
    for (const std::size_t col : {ori, adv})
      add_windows_of(assay::aeon::strip_mutation_markers(csv.field(col)), out);
  }
  return out;
}

// Every shape of window: no left or right neighbours, sentence markers, frequent words, OOV-free
// rare words.
std::vector<Window> window_shapes() {
  const auto& t = trie();
  auto id = [&](const char* w) { return t.find(w); };
  const assay::lm::WordId none = assay::lm::kNoWord;
  return {{t.begin_sentence(), id("and"), id("there's"), id("the"), id("inimitable")},
          {none, t.begin_sentence(), id("the"), id("movie"), id("was")},
          {id("of"), id("the"), id("best"), id("of"), id("the")},
          {id("the"), id("movie"), id("was"), t.end_sentence(), none},
          {none, none, id("good"), id("film"), t.end_sentence()},
          {id("a"), id("very"), id("good"), none, none},
          {id("in"), id("the"), id("end"), id("of"), id("the")},
          {id("zyuganov"), id("aardvark"), id("the"), id("of"), id("and")}};
}

// The shapes, the windows of the project's 40 handmade sentences (tests/data/lm), and those of
// every `step`-th MR record when ../shared/data is there: the separable normaliser's checks
// run in a clone without it too.
std::vector<Window> test_windows(std::size_t step) {
  std::vector<Window> out = window_shapes();
  std::ifstream in(std::string(ASSAY_TEST_DATA_DIR) + "/lm/sentences.txt");
  for (std::string line; std::getline(in, line);) add_windows_of(line, out);
  if (std::filesystem::exists(kMrAnnotations)) {
    const auto mr = mr_windows(step);
    out.insert(out.end(), mr.begin(), mr.end());
  }
  return out;
}

// The integer score of every word of the vocabulary in a window equals the sum of the three
// sphinxbase look-ups the reference makes.
TEST(BackoffNormaliser, EveryCandidateScoreEqualsSphinxbase) {
  const auto& t = trie();
  const assay::aeon::BackoffWindowScorer scorer(t);
  const assay::lm::WordId none = assay::lm::kNoWord;
  for (const auto& win : window_shapes()) {
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

// The separable normaliser (every candidate but the target from per-word, per-pair and
// per-trigram-list sums) against the exact back-off normaliser on every sentence of the MR
// annotations: within 2e-4 relative (measured: mean 1.1e-5, largest 9.1e-5).
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

// The separable normaliser's definition, candidate by candidate over the whole vocabulary: the
// target scored exactly (three look-ups), every other candidate from its n-grams with the
// neighbours with each truncation taken as +0.5: its bigrams (backoff_window_scorer.cc states
// the four cases), with a factor replaced by the trigram's probability where the candidate has
// the trigram (u v w) (and the bigram (v w)), (v w x) (and (w x)) or (w x y). separable_probability
// computes the same sum from per-word sums, per-pair trigram-list sums and the lists'
// intersections; this enumerates it.
double enumerated_separable(const std::array<assay::lm::WordId, 5>& win) {
  using assay::lm::kNoWord;
  using assay::lm::WordId;
  const auto& t = trie();
  const WordId u = win[0], v = win[1], target = win[2], x = win[3], y = win[4];
  const int n1 = v == kNoWord ? 0 : (u == kNoWord ? 1 : 2);
  const bool f2 = x != kNoWord, f3 = f2 && y != kNoWord;
  const auto& P = t.unigram_probs();
  const auto& Q = t.unigram_backoffs();
  const auto* xy = f3 ? t.bigram(x, y) : nullptr;
  const double b0 = n1 >= 1 ? Q[static_cast<std::size_t>(v)] : 0.0;
  const auto* uv = n1 == 2 ? t.bigram(u, v) : nullptr;
  const double b1 = uv ? uv->backoff : 0.0;
  const float k3f_float = !f3  ? 0.0f
                          : xy ? xy->prob
                               : P[static_cast<std::size_t>(y)] + Q[static_cast<std::size_t>(x)];
  const double k3f = k3f_float;
  const int k3 = f3 ? static_cast<int>(k3f_float + 0.0f) : 0;
  // The trigram probabilities by candidate (NaN: no such trigram).
  const double none = std::numeric_limits<double>::quiet_NaN();
  const auto V = static_cast<std::size_t>(t.vocabulary_size());
  std::vector<double> p_uvw(V, none), p_vwx(V, none), p_wxy(V, none);
  if (n1 == 2)
    for (const auto& e : t.trigrams_after(u, v)) p_uvw[static_cast<std::size_t>(e.word)] = e.prob;
  if (f2 && n1 >= 1)
    for (const auto& e : t.trigrams_around(v, x)) p_vwx[static_cast<std::size_t>(e.word)] = e.prob;
  if (xy)
    for (const auto& e : t.trigrams_before(x, y)) p_wxy[static_cast<std::size_t>(e.word)] = e.prob;
  auto exact = [&](WordId w) {
    const std::array<WordId, 2> left{u, v}, mid{v, w}, right{w, x};
    int s = t.raw_score(w, left);
    if (f2) s += t.raw_score(x, mid);
    if (f3) s += t.raw_score(y, right);
    return s;
  };
  const int st = exact(target);
  long double z = 0;
  for (WordId w = 0; w < t.vocabulary_size(); ++w) {
    if (w == t.begin_sentence() || w == t.end_sentence()) continue;
    const auto i = static_cast<std::size_t>(w);
    double score;
    if (w == target) {
      score = exact(w);
    } else {
      const auto* a = n1 >= 1 ? t.bigram(v, w) : nullptr;
      const auto* b = f2 ? t.bigram(w, x) : nullptr;
      const double bo_vw = a ? a->backoff : 0.0;
      score = (!a                      ? P[i] + b0 + b1
               : !std::isnan(p_uvw[i]) ? p_uvw[i]
                                       : static_cast<double>(a->prob) + b1) +
              0.5;
      if (f2) {
        if (!b)
          score += static_cast<double>(P[static_cast<std::size_t>(x)]) + Q[i] + bo_vw;
        else
          score += !std::isnan(p_vwx[i]) ? p_vwx[i] : static_cast<double>(b->prob) + bo_vw;
        score += 0.5;
      }
      if (f3) score += !std::isnan(p_wxy[i]) ? p_wxy[i] + 0.5 : b ? k3f + b->backoff + 0.5 : k3;
    }
    z += std::exp(static_cast<long double>(assay::lm::SphinxTrie::log_base()) * (score - st));
  }
  return static_cast<double>(1.0L / z);
}

// separable_probability against its definition enumerated over the vocabulary on real windows
// (every 25th MR annotation record): equal within 1e-10 relative.
TEST(BackoffNormaliser, SeparableEqualsItsDefinitionEnumerated) {
  const assay::aeon::BackoffWindowScorer scorer(trie());
  const auto windows = test_windows(25);
  ASSERT_GT(windows.size(), 80u);
  double worst = 0;
  for (const auto& win : windows) {
    const double fast = scorer.separable_probability(win), ref = enumerated_separable(win);
    const double rel = std::abs(fast - ref) / ref;
    worst = std::max(worst, rel);
    EXPECT_LE(rel, 1e-10) << trie().word(win[2]) << ": " << fast << " vs " << ref;
  }
  std::cout << "separable vs its enumerated definition: " << windows.size()
            << " windows, largest relative difference " << worst << "\n";
}

// The per-word sums and indexes against the bigram lists they summarise, for the neighbours of
// real windows (every 10th MR record) and the sentence markers.
TEST(BackoffNormaliser, PerWordSumsEqualTheirLists) {
  ASSAY_REQUIRE_FILE(kMrAnnotations);
  const auto& t = trie();
  const assay::aeon::BackoffWindowScorer scorer(t);
  const double lb = assay::lm::SphinxTrie::log_base();
  const auto& P = t.unigram_probs();
  const auto& Q = t.unigram_backoffs();
  std::vector<assay::lm::WordId> words{t.begin_sentence(), t.end_sentence()};
  for (const auto& win : mr_windows(10)) {
    if (win[1] != assay::lm::kNoWord) words.push_back(win[1]);
    if (win[3] != assay::lm::kNoWord) words.push_back(win[3]);
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  ASSERT_GT(words.size(), 100u);
  auto E = [lb](double units) { return std::exp(lb * units); };
  auto marker = [&](assay::lm::WordId w) {
    return w == t.begin_sentence() || w == t.end_sentence();
  };
  std::size_t indexed = 0;
  for (const assay::lm::WordId w : words) {
    const auto after = t.bigrams_after(w);
    const auto& a = scorer.after_sums(w);
    ASSERT_EQ(a.list.size(), after.size());
    double a0 = 0, a1 = 0, g0 = 0, g1 = 0;
    for (const auto& e : after) {
      if (marker(e.word)) continue;
      const auto i = static_cast<std::size_t>(e.word);
      a0 += E(e.prob);
      a1 += E(static_cast<double>(e.prob) + Q[i] + e.backoff);
      g0 += E(P[i]);
      g1 += E(static_cast<double>(P[i]) + Q[i]);
    }
    EXPECT_NEAR(a.a0, a0, 1e-12 * a0) << t.word(w);
    EXPECT_NEAR(a.a1, a1, 1e-12 * a1) << t.word(w);
    EXPECT_NEAR(a.g0, g0, 1e-12 * g0) << t.word(w);
    EXPECT_NEAR(a.g1, g1, 1e-12 * g1) << t.word(w);
    const auto before = t.bigrams_before(w);
    const auto& b = scorer.before_sums(w);
    ASSERT_EQ(b.list.size(), before.size());
    double b0 = 0, b1 = 0, h1 = 0;
    for (const auto& e : before) {
      if (marker(e.word)) continue;
      const auto i = static_cast<std::size_t>(e.word);
      b0 += E(static_cast<double>(P[i]) + e.prob);
      b1 += E(static_cast<double>(P[i]) + e.prob + e.backoff);
      h1 += E(static_cast<double>(P[i]) + Q[i]);
    }
    EXPECT_NEAR(b.b0, b0, 1e-12 * b0) << t.word(w);
    EXPECT_NEAR(b.b1, b1, 1e-12 * b1) << t.word(w);
    EXPECT_NEAR(b.g1, h1, 1e-12 * h1) << t.word(w);
    // Where a list has a bit-set index, it finds every entry and nothing else.
    for (const auto* sums_index : {&a.index, &b.index}) {
      if (sums_index->empty()) continue;
      ++indexed;
      const auto list = sums_index == &a.index ? a.list : b.list;
      std::vector<std::int64_t> expected(static_cast<std::size_t>(t.vocabulary_size()), -1);
      for (std::size_t k = 0; k < list.size(); ++k)
        expected[static_cast<std::size_t>(list[k].word)] = static_cast<std::int64_t>(k);
      for (assay::lm::WordId x = 0; x < t.vocabulary_size(); ++x) {
        const std::int64_t j = expected[static_cast<std::size_t>(x)];
        ASSERT_EQ(sums_index->find(x), j) << t.word(w) << " / " << t.word(x);
        // find_or_rank: 2·index + 1 when present, 2·(entries before x) when not.
        const std::int64_t r = sums_index->find_or_rank(x);
        ASSERT_EQ(r & 1, j >= 0 ? 1 : 0) << t.word(w) << " / " << t.word(x);
        if (j >= 0) {
          ASSERT_EQ(r >> 1, j) << t.word(w) << " / " << t.word(x);
        }
      }
    }
  }
  EXPECT_GT(indexed, 10u);  // frequent neighbours ("the", "of", ...) have long lists
}

// Several threads building the per-word sums at once get the serial values.
TEST(BackoffNormaliser, SeparableIsTheSameFromManyThreads) {
  const auto& t = trie();
  auto id = [&](const char* w) { return t.find(w); };
  const std::vector<std::array<assay::lm::WordId, 5>> windows = {
      {t.begin_sentence(), id("and"), id("there's"), id("the"), id("inimitable")},
      {assay::lm::kNoWord, t.begin_sentence(), id("the"), id("movie"), id("was")},
      {id("of"), id("the"), id("best"), id("of"), id("the")},
      {id("the"), id("movie"), id("was"), t.end_sentence(), assay::lm::kNoWord},
      {id("a"), id("very"), id("good"), id("film"), id("and")}};
  std::vector<double> serial;
  {
    const assay::aeon::BackoffWindowScorer scorer(t);
    for (const auto& w : windows) serial.push_back(scorer.separable_probability(w));
  }
  const assay::aeon::BackoffWindowScorer scorer(t);
  std::vector<std::vector<double>> got(4);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < got.size(); ++k) {
    threads.emplace_back([&, k] {
      for (std::size_t r = 0; r < windows.size(); ++r) {
        const auto& w = windows[(r + k) % windows.size()];
        got[k].push_back(scorer.separable_probability(w));
      }
    });
  }
  for (auto& th : threads) th.join();
  for (std::size_t k = 0; k < got.size(); ++k) {
    for (std::size_t r = 0; r < windows.size(); ++r)
      EXPECT_EQ(got[k][r], serial[(r + k) % windows.size()]);
  }
}

// Past its bound the scorer keeps no trigram lists and builds them per window: the same values,
// bit for bit, also from several threads at once (each with its own scratch lists). With the
// MR windows there are enough pairs for the tables of kept lists and pair sums to grow several
// times: a second pass reads every value back from them.
TEST(BackoffNormaliser, SeparableIsTheSameWithoutKeptLists) {
  const auto windows = test_windows(2);
  ASSERT_GT(windows.size(), 80u);
  const assay::aeon::BackoffWindowScorer kept(trie()), unkept(trie(), 0);
  std::vector<double> expected;
  for (const auto& win : windows) expected.push_back(kept.separable_probability(win));
  for (std::size_t i = 0; i < windows.size(); ++i)
    EXPECT_EQ(unkept.separable_probability(windows[i]), expected[i]);
  for (std::size_t i = 0; i < windows.size(); ++i)
    EXPECT_EQ(kept.separable_probability(windows[i]), expected[i]);
  std::vector<std::thread> threads;
  std::vector<std::size_t> wrong(3, 0);
  for (std::size_t k = 0; k < wrong.size(); ++k) {
    threads.emplace_back([&, k] {
      for (std::size_t r = 0; r < windows.size(); ++r) {
        const std::size_t i = (r * (k + 1)) % windows.size();
        if (unkept.separable_probability(windows[i]) != expected[i]) ++wrong[k];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const std::size_t n : wrong) EXPECT_EQ(n, 0u);
}

TEST(BackoffNormaliser, FallsBackToEnumerationOffTheTrie) {
  NgramSynEval syn(sphinx());
  EXPECT_EQ(syn.normaliser(), NgramNormaliser::kEnumerate);
}

}  // namespace
