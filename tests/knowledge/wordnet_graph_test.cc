// WordNetGraph on the handcrafted mini database (structure, errors) and on the real WordNet 3.0
// of wordnet-base (facts from ../shared/spec/resources.md, thread-safe reads).
#include "knowledge/wordnet_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "core/jsonl.h"
#include "core/thread_pool.h"
#include "knowledge_test_paths.h"
#include "support/temp_dir.h"

namespace assay::knowledge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kData;
using testing::kMiniWordNet;

std::vector<std::string> names(const KnowledgeGraph& g, const std::vector<WeightedNode>& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(g.node_name(n.node));
  return out;
}

// A copy of the mini database with one file replaced by a broken variant.
std::string broken_copy(const assay::testing::TempDir& dir, const std::string& target,
                        const std::string& broken) {
  for (const auto& e : std::filesystem::directory_iterator(kMiniWordNet)) {
    std::filesystem::copy_file(e.path(), dir.path() / e.path().filename());
  }
  std::filesystem::copy_file(kData + "/wordnet-broken/" + broken, dir.path() / target,
                             std::filesystem::copy_options::overwrite_existing);
  return dir.path().string();
}

std::string load_error(const std::string& dir) {
  try {
    WordNetGraph::load(dir);
  } catch (const core::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(WordNetGraph, MiniDatabaseStructure) {
  const auto g = WordNetGraph::load(kMiniWordNet);
  EXPECT_EQ(g->node_count(), 17u);
  const auto actor = g->noun_senses("Actor");
  ASSERT_EQ(actor.size(), 1u);
  EXPECT_EQ(g->node_name(actor[0]), "actor.n.01");
  EXPECT_THAT(names(*g, g->hypernyms(actor[0])), ElementsAre("performer.n.01"));
  EXPECT_THAT(names(*g, g->hyponyms(actor[0])), ElementsAre("actress.n.01"));
  EXPECT_EQ(g->gloss(actor[0]), "a theatrical performer");
  // Senses in index order: the insect queen first.
  const auto queen = g->noun_senses("queen");
  ASSERT_EQ(queen.size(), 2u);
  EXPECT_EQ(g->gloss(queen[0]), "the only fertile female in a colony of social insects");
  EXPECT_EQ(g->find_node("queen.n.02"), queen[1]);
  EXPECT_THAT(g->node_words(queen[1]), ElementsAre("queen", "female_monarch"));
  EXPECT_EQ(g->find_node("queen.n.03"), std::nullopt);
  EXPECT_EQ(g->find_node("queen"), std::nullopt);
  // Lexical antonyms follow the word numbers: queen -> king, female_monarch -> male_monarch.
  EXPECT_THAT(g->antonyms("queen"), ElementsAre("king"));
  EXPECT_THAT(g->antonyms("female monarch"), ElementsAre("male_monarch"));
  EXPECT_THAT(g->antonyms("actor"), ElementsAre());
  // Derivation pointers reach other parts of speech; the exception list maps plurals.
  EXPECT_THAT(g->related_forms("actor"), ElementsAre("act"));
  EXPECT_EQ(g->noun_senses("women"), g->noun_senses("woman"));
  EXPECT_THAT(g->antonyms("women"), ElementsAre("man"));
  EXPECT_TRUE(g->noun_senses("unicorn").empty());
}

TEST(WordNetGraph, MissingFileNamesThePackage) {
  assay::testing::TempDir dir;
  for (const auto& e : std::filesystem::directory_iterator(kMiniWordNet)) {
    if (e.path().filename() != "index.adv")
      std::filesystem::copy_file(e.path(), dir.path() / e.path().filename());
  }
  const std::string msg = load_error(dir.path().string());
  EXPECT_THAT(msg, HasSubstr("index.adv"));
  EXPECT_THAT(msg, HasSubstr("wordnet-base"));
  EXPECT_THROW(WordNetGraph::load(dir.path().string()), core::MissingResourceError);
}

TEST(WordNetGraph, MalformedFilesNameFileLineAndColumn) {
  struct Case {
    const char* target;
    const char* broken;
    const char* want;
  };
  const Case cases[] = {
      {"data.noun", "bad-offset.data.noun",
       "data.noun:2:1: expected an 8-digit synset offset, got '0000x100'"},
      {"data.noun", "missing-gloss.data.noun", "data.noun:3:"},
      {"data.noun", "short-pointer-list.data.noun", "data.noun:2:"},
      {"data.noun", "dangling-pointer.data.noun",
       "data.noun:3: pointer to synset offset 9999 which is not in data.noun"},
      {"index.noun", "bad-sense-count.index.noun", "index.noun:3:18: expected a sense count equal"},
      {"index.noun", "unknown-offset.index.noun",
       "index.noun:2: lemma 'actor' names synset offset 451"},
      {"data.noun", "duplicate-offset.data.noun",
       "data.noun:3: duplicate synset offset 100 (first on line 2)"},
      {"data.noun", "bad-target-word.data.noun",
       "data.noun:3: pointer names word 5 of synset 100, which has 1 words"},
      {"data.noun", "wrong-pos.data.noun",
       "data.noun:2: synset of part of speech 'v' in data.noun"},
      {"index.noun", "duplicate-lemma.index.noun", "index.noun:3: duplicate lemma 'actor'"},
      {"noun.exc", "bad.noun.exc", "noun.exc:2:"},
  };
  for (const auto& c : cases) {
    assay::testing::TempDir dir;
    const std::string msg = load_error(broken_copy(dir, c.target, c.broken));
    EXPECT_THAT(msg, HasSubstr(c.want)) << c.broken;
  }
}

TEST(WordNetGraph, LexicalLinksForEveryPartOfSpeech) {
  const auto mini = WordNetGraph::load(kMiniWordNet);
  EXPECT_THAT(mini->related_forms("act", PartOfSpeech::kVerb), ElementsAre("actor"));
  EXPECT_TRUE(mini->related_forms("act").empty());  // no noun 'act' in the mini database
  // The graph reads the process's shared database.
  EXPECT_EQ(mini->database().get(), wordnet::Database::open(kMiniWordNet).get());

  const auto g = WordNetGraph::load();
  EXPECT_THAT(g->antonyms("good", PartOfSpeech::kAdjective), ElementsAre("bad", "evil"));
  EXPECT_THAT(g->antonyms("increase", PartOfSpeech::kVerb), ElementsAre("decrease"));
  EXPECT_THAT(g->antonyms("quickly", PartOfSpeech::kAdverb), ElementsAre("slowly"));
  EXPECT_TRUE(g->antonyms("quickly").empty());  // not a noun
  EXPECT_THAT(g->antonyms("worse", PartOfSpeech::kAdjective), ElementsAre("better"));
  EXPECT_THAT(g->related_forms("happy", PartOfSpeech::kAdjective), ElementsAre("happiness"));
  // verb.exc maps went -> go; the exact-lemma form, for callers that lemmatise, does not.
  EXPECT_THAT(g->antonyms("went", PartOfSpeech::kVerb), ElementsAre("come"));
  EXPECT_TRUE(g->lemma_links("went", PartOfSpeech::kVerb, LexicalRelation::kAntonym).empty());
  EXPECT_THAT(g->lemma_links("go", PartOfSpeech::kVerb, LexicalRelation::kAntonym),
              ElementsAre("come"));
}

TEST(WordNetGraph, RealWordNetFactsAndConcurrentReads) {
  const auto g = WordNetGraph::load();
  EXPECT_EQ(g->stats().n_synsets, 117659u);  // WordNet 3.0: 82,115 + 13,767 + 18,156 + 3,621
  // actor -> performer -> entertainer -> person
  const auto actor = g->find_node("actor.n.01");
  ASSERT_TRUE(actor);
  std::vector<std::string> chain;
  for (NodeId n = *actor; chain.size() < 4;) {
    chain.push_back(g->node_name(n));
    const auto h = g->hypernyms(n);
    if (h.empty()) break;
    n = h[0].node;
  }
  EXPECT_THAT(chain,
              ElementsAre("actor.n.01", "performer.n.01", "entertainer.n.01", "person.n.01"));
  const auto actress = g->noun_senses("actress");
  ASSERT_EQ(actress.size(), 1u);
  EXPECT_EQ(g->gloss(actress[0]), "a female actor");
  EXPECT_THAT(names(*g, g->hypernyms(actress[0])), ElementsAre("actor.n.01"));
  EXPECT_EQ(g->gloss(g->noun_senses("waitress")[0]), "a woman waiter");
  EXPECT_EQ(g->gloss(g->noun_senses("queen")[0]).rfind("the only fertile female", 0), 0u);
  for (const auto& [m, f] : std::vector<std::pair<std::string, std::string>>{{"uncle", "aunt"},
                                                                             {"king", "queen"},
                                                                             {"brother", "sister"},
                                                                             {"boy", "girl"},
                                                                             {"man", "woman"},
                                                                             {"husband", "wife"}}) {
    EXPECT_THAT(g->antonyms(m), ::testing::Contains(f)) << m;
  }
  EXPECT_TRUE(g->antonyms("actor").empty());
  EXPECT_THAT(g->related_forms("actor"), ::testing::Contains("act"));

  // Immutable after load: concurrent queries give the serial answers.
  const std::vector<std::string> words = {"actor", "queen", "dog", "policewoman", "bank", "run"};
  std::vector<std::string> serial(words.size()), parallel(words.size());
  auto answer = [&](std::size_t i) {
    std::string s;
    for (NodeId n : g->noun_senses(words[i % words.size()])) {
      s += g->node_name(n) + g->gloss(n);
      for (const auto& h : g->hypernyms(n)) s += g->node_name(h.node);
    }
    return s;
  };
  for (std::size_t i = 0; i < words.size(); ++i) serial[i] = answer(i);
  std::vector<std::string> many(600);
  core::parallel_for(4, 0, many.size(), 1, [&](std::size_t i) { many[i] = answer(i); });
  for (std::size_t i = 0; i < many.size(); ++i) ASSERT_EQ(many[i], serial[i % words.size()]);
}

// Agreement with an independent reader of the same files: NLTK's WordNetCorpusReader
// (golden written by tools/goldens/knowledge_wordnet_nltk.py).
TEST(WordNetGraph, AgreesWithNltkOnSensesHypernymsGlossesAndAntonyms) {
  const auto g = WordNetGraph::load();
  core::JsonlReader golden(kData + "/wordnet_nltk_golden.jsonl");
  nlohmann::json entry;
  std::size_t n_words = 0, n_senses = 0;
  while (golden.next(entry)) {
    const std::string word = entry["word"];
    const auto senses = g->noun_senses(word);
    ASSERT_EQ(senses.size(), entry["senses"].size()) << word;
    std::set<std::string> want_antonyms;
    for (std::size_t i = 0; i < senses.size(); ++i) {
      const auto& want = entry["senses"][i];
      EXPECT_EQ(g->node_name(senses[i]), want["name"].get<std::string>()) << word;
      EXPECT_EQ(g->node_words(senses[i]), want["lemmas"].get<std::vector<std::string>>()) << word;
      EXPECT_EQ(g->gloss(senses[i]).rfind(want["definition"].get<std::string>(), 0), 0u) << word;
      // NLTK sorts related synsets by name; the data file order is kept here.
      auto got_hypernyms = names(*g, g->hypernyms(senses[i]));
      auto want_hypernyms = want["hypernyms"].get<std::vector<std::string>>();
      std::sort(got_hypernyms.begin(), got_hypernyms.end());
      std::sort(want_hypernyms.begin(), want_hypernyms.end());
      EXPECT_EQ(got_hypernyms, want_hypernyms) << word;
      for (const auto& a : want["antonyms"]) want_antonyms.insert(a.get<std::string>());
      ++n_senses;
    }
    const auto got = g->antonyms(word);
    EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), want_antonyms) << word;
    ++n_words;
  }
  EXPECT_EQ(n_words, 61u);
  EXPECT_GT(n_senses, 200u);
}

}  // namespace
}  // namespace assay::knowledge
