// SphinxTrie (our reader of sphinxbase's binary trie) against sphinxbase itself on the CMU
// trigram: the same integer score for every word of the vocabulary in contexts of every shape.
#include "lm/sphinx_trie.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cmath>
#include <fstream>
#include <thread>
#include <vector>

#include "core/error.h"
#include "lm/sphinx_model.h"
#include "support/temp_dir.h"

namespace {

using assay::lm::kNoWord;
using assay::lm::SphinxModel;
using assay::lm::SphinxTrie;
using assay::lm::WordId;

const SphinxModel& sphinx() {
  static const auto model = SphinxModel::load();
  return *model;
}
const SphinxTrie& trie() {
  static const auto model = SphinxTrie::load(assay::lm::kCmuTrigramPath);
  return *model;
}

TEST(SphinxTrie, SameVocabularyAsSphinxbase) {
  ASSERT_EQ(trie().vocabulary_size(), sphinx().vocabulary_size());
  EXPECT_EQ(trie().order(), 3);
  EXPECT_EQ(trie().begin_sentence(), sphinx().begin_sentence());
  EXPECT_EQ(trie().end_sentence(), sphinx().end_sentence());
  for (WordId w = 0; w < trie().vocabulary_size(); w += 97) {
    EXPECT_EQ(trie().word(w), sphinx().word(w));
    EXPECT_EQ(trie().find(trie().word(w)), w);
  }
  EXPECT_EQ(trie().find("qzxqzxq"), kNoWord);
}

// Every word w of the vocabulary as the scored word and inside the history, in the three
// positions NgramSynEval uses, for frequent and rare neighbours (large and empty sets of
// explicit n-grams), histories of length 0, 1 and 2.
TEST(SphinxTrie, EveryScoreEqualsSphinxbase) {
  const SphinxTrie& t = trie();
  const SphinxModel& s = sphinx();
  auto id = [&](const char* w) {
    const WordId i = t.find(w);
    EXPECT_NE(i, kNoWord) << w;
    return i;
  };
  const std::vector<std::array<WordId, 2>> contexts = {{id("of"), id("the")},
                                                       {t.begin_sentence(), id("i")},
                                                       {id("the"), id("movie")},
                                                       {id("very"), id("good")},
                                                       {id("zyuganov"), id("aardvark")},
                                                       {kNoWord, t.begin_sentence()},
                                                       {kNoWord, id("and")},
                                                       {kNoWord, kNoWord}};
  const WordId V = t.vocabulary_size();
  std::size_t checked = 0, mismatches = 0;
  for (const auto& c : contexts) {
    for (WordId w = 0; w < V; ++w) {
      const std::array<WordId, 2> left{c[0], c[1]};
      const std::array<WordId, 2> mid{c[1], w};
      const std::array<WordId, 2> right{w, c[1] == kNoWord ? t.end_sentence() : c[1]};
      const WordId next = c[0] == kNoWord ? t.end_sentence() : c[0];
      const int a1 = t.raw_score(w, left), b1 = s.raw_score(w, left);
      const int a2 = t.raw_score(next, mid), b2 = s.raw_score(next, mid);
      const int a3 = t.raw_score(next, right), b3 = s.raw_score(next, right);
      checked += 3;
      if (a1 != b1 || a2 != b2 || a3 != b3) {
        if (++mismatches < 10)
          ADD_FAILURE() << "w=" << t.word(w) << " ctx " << c[0] << "," << c[1] << ": " << a1 << "/"
                        << b1 << " " << a2 << "/" << b2 << " " << a3 << "/" << b3;
      }
    }
  }
  EXPECT_EQ(mismatches, 0u) << "of " << checked;
  EXPECT_GT(checked, 1'500'000u);
}

TEST(SphinxTrie, LogProbIsTheRawScoreInNaturalLog) {
  const std::array<WordId, 2> ctx{trie().find("the"), trie().find("movie")};
  const WordId w = trie().find("was");
  EXPECT_DOUBLE_EQ(trie().log_prob(w, ctx), sphinx().log_prob(w, ctx));
}

TEST(SphinxTrie, EnumerationsMatchLookups) {
  const SphinxTrie& t = trie();
  const WordId the = t.find("the"), movie = t.find("movie"), was = t.find("was");
  std::size_t n = 0;
  for (const auto& e : t.bigrams_after(the)) {
    const auto* b = t.bigram(the, e.word);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->prob, e.prob);
    ++n;
  }
  EXPECT_GT(n, 1000u);
  for (const auto& e : t.bigrams_before(movie)) ASSERT_NE(t.bigram(e.word, movie), nullptr);
  // A trigram's score is its own probability, truncated.
  for (const auto& e : t.trigrams_after(the, movie)) {
    const std::array<WordId, 2> ctx{the, movie};
    EXPECT_EQ(t.raw_score(e.word, ctx), static_cast<int>(e.prob));
  }
  EXPECT_FALSE(t.trigrams_after(the, movie).empty());
  for (const auto& e : t.trigrams_around(the, was)) {
    const std::array<WordId, 2> ctx{the, e.word};
    EXPECT_EQ(t.raw_score(was, ctx), static_cast<int>(e.prob));
  }
  for (const auto& e : t.trigrams_before(movie, was)) {
    const std::array<WordId, 2> ctx{e.word, movie};
    EXPECT_EQ(t.raw_score(was, ctx), static_cast<int>(e.prob));
  }
}

TEST(SphinxTrie, ConcurrentQueriesNeedNoLock) {
  const SphinxTrie& t = trie();
  const std::array<WordId, 2> ctx{t.find("of"), t.find("the")};
  std::vector<int> expected(static_cast<std::size_t>(t.vocabulary_size()));
  for (WordId w = 0; w < t.vocabulary_size(); ++w)
    expected[static_cast<std::size_t>(w)] = t.raw_score(w, ctx);
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&, k] {
      for (WordId w = k; w < t.vocabulary_size(); w += 1) {
        if (t.raw_score(w, ctx) != expected[static_cast<std::size_t>(w)]) ++bad;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

// The enumeration indexes are built on the first enumeration, once, whichever thread asks
// first: threads racing to be first all get the same lists, equal to the shared trie's.
TEST(SphinxTrie, FirstEnumerationsFromManyThreadsSeeOneIndex) {
  const auto fresh = SphinxTrie::load(assay::lm::kCmuTrigramPath);
  const SphinxTrie& t = *fresh;
  const WordId the = t.find("the"), movie = t.find("movie"), was = t.find("was");
  struct Seen {
    const SphinxTrie::Entry* after = nullptr;
    std::size_t n_after = 0, n_tri = 0, n_around = 0, n_before = 0;
  };
  std::array<Seen, 4> seen;
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    threads.emplace_back([&, k] {
      ++ready;
      while (ready.load() < static_cast<int>(seen.size())) {
      }
      const auto after = t.bigrams_after(the);
      seen[k] = {after.data(), after.size(), t.trigrams_after(the, movie).size(),
                 t.trigrams_around(the, was).size(), t.trigrams_before(movie, was).size()};
    });
  }
  for (auto& th : threads) th.join();
  for (const Seen& s : seen) {
    EXPECT_EQ(s.after, seen[0].after);
    EXPECT_EQ(s.n_after, trie().bigrams_after(trie().find("the")).size());
    EXPECT_EQ(s.n_tri, trie().trigrams_after(trie().find("the"), trie().find("movie")).size());
    EXPECT_EQ(s.n_around, trie().trigrams_around(trie().find("the"), trie().find("was")).size());
    EXPECT_EQ(s.n_before, trie().trigrams_before(trie().find("movie"), trie().find("was")).size());
  }
  EXPECT_GT(seen[0].n_after, 1000u);
  EXPECT_GT(seen[0].n_tri, 0u);
}

TEST(SphinxTrie, ArpaFileGoesThroughSphinxbasesTrie) {
  assay::testing::TempDir dir;
  const std::string arpa =
      dir.write("tiny.arpa",
                "\\data\\\nngram 1=5\nngram 2=3\nngram 3=1\n\n\\1-grams:\n"
                "-1.0\t<s>\t-0.3\n-0.7\t</s>\n-0.9\ta\t-0.2\n-1.1\tb\t-0.25\n-1.3\tc\t-0.1\n\n"
                "\\2-grams:\n-0.4\t<s> a\t-0.1\n-0.5\ta b\t-0.2\n-0.6\tb c\n\n"
                "\\3-grams:\n-0.2\t<s> a b\n\n\\end\\\n");
  const auto ours = SphinxTrie::load(arpa);
  const auto theirs = SphinxModel::load(arpa);
  ASSERT_EQ(ours->vocabulary_size(), theirs->vocabulary_size());
  for (WordId u = -1; u < ours->vocabulary_size(); ++u) {
    for (WordId v = -1; v < ours->vocabulary_size(); ++v) {
      for (WordId w = 0; w < ours->vocabulary_size(); ++w) {
        const std::array<WordId, 2> ctx{u, v};
        EXPECT_EQ(ours->raw_score(w, ctx), theirs->raw_score(w, ctx)) << u << " " << v << " " << w;
      }
    }
  }
}

// sphinxbase's unknown word is the entry spelt <UNK>; an OOV word scored under --oov unk gets
// its probability from either reader.
TEST(SphinxTrie, UnknownWordAsSphinxbase) {
  assay::testing::TempDir dir;
  const std::string arpa = dir.write("unk.arpa",
                                     "\\data\\\nngram 1=4\nngram 2=1\n\n\\1-grams:\n"
                                     "-1.0\t<s>\t-0.3\n-0.7\t</s>\n-0.9\ta\t-0.2\n-2.0\t<UNK>\n\n"
                                     "\\2-grams:\n-0.4\t<s> a\n\n\\end\\\n");
  const auto ours = SphinxTrie::load(arpa);
  const auto theirs = SphinxModel::load(arpa);
  ASSERT_NE(theirs->unknown(), kNoWord);
  EXPECT_EQ(ours->unknown(), theirs->unknown());
  EXPECT_EQ(ours->word(ours->unknown()), "<UNK>");
  EXPECT_EQ(trie().unknown(), sphinx().unknown());  // kNoWord: the CMU trigram has no <UNK>
}

TEST(SphinxTrie, MalformedFilesAreErrors) {
  assay::testing::TempDir dir;
  EXPECT_THROW(SphinxTrie::load(dir.file("missing.bin")), assay::core::MissingResourceError);
  // A real header with a truncated body.
  std::ifstream in(assay::lm::kCmuTrigramPath, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  const std::string cut = dir.write("cut.lm.bin", head);
  EXPECT_THROW(SphinxTrie::load(cut), assay::core::ParseError);
}

}  // namespace
