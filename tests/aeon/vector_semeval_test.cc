// VectorSemEval and WordNetRelations on the Debian WordNet 3.0 files and handmade vectors.
#include "aeon/vector_semeval.h"

#include <gtest/gtest.h>

#include "aeon/wordnet_relations.h"

namespace {

using assay::aeon::VectorSemEval;
using assay::aeon::WordNetRelations;

const WordNetRelations& wordnet() {
  static const WordNetRelations wn;
  return wn;
}

TEST(WordNetRelations, SynonymsAntonymsAndPaths) {
  const auto& wn = wordnet();
  EXPECT_TRUE(wn.synonyms("film", "movie"));
  EXPECT_TRUE(wn.synonyms("films", "movies"));  // lemmatised
  EXPECT_FALSE(wn.synonyms("film", "banana"));
  EXPECT_TRUE(wn.antonyms("good", "bad"));   // adjectives: not in KnowledgeGraph::antonyms
  EXPECT_TRUE(wn.antonyms("love", "hate"));  // verbs
  EXPECT_FALSE(wn.antonyms("good", "fine"));
  EXPECT_GT(wn.path_similarity("dog", "cat"), wn.path_similarity("dog", "idea"));
  EXPECT_EQ(wn.path_similarity("qzxq", "dog"), 0.0);
}

TEST(VectorSemEval, WordNetOnlySynonymBeatsAntonym) {
  VectorSemEval sem(nullptr, wordnet());
  EXPECT_STREQ(sem.backend(), "wordnet");
  const auto syn = sem.score("the film was good .", "the movie was good .");
  const auto ant = sem.score("the film was good .", "the film was bad .");
  EXPECT_DOUBLE_EQ(syn.sim, 1.0);
  EXPECT_EQ(syn.n_patches, 1u);
  EXPECT_LT(ant.sim, 0.7);
  EXPECT_GT(syn.sim, ant.sim);
  EXPECT_EQ(sem.score("same text .", "same text .").sim, 1.0);
}

TEST(VectorSemEval, VectorsWithKnowledge) {
  // 2-d vectors where good and bad are close (as in real distributional spaces).
  assay::vectors::EmbeddingMatrix m(
      {"the", "film", "was", "good", "bad", "fine", "movie", "."},
      {1, 0, 0.9f, 0.4f, 1, 0.1f, 0.2f, 1, 0.3f, 1, 0.25f, 1, 0.9f, 0.45f, 0.5f, 0.5f}, 2);
  VectorSemEval sem(&m, wordnet());
  EXPECT_STREQ(sem.backend(), "vectors+wordnet");
  const auto ant = sem.score("the film was good .", "the film was bad .");
  const auto syn = sem.score("the film was good .", "the movie was good .");
  const auto fine = sem.score("the film was good .", "the film was fine .");
  EXPECT_DOUBLE_EQ(syn.sim, 1.0);  // synonym takes the original word's vector
  EXPECT_GT(fine.sim, ant.sim);    // the antonym's vector is negated
  EXPECT_LT(ant.sim, 0.9);
  EXPECT_GE(ant.sim, 0.0);
}

}  // namespace
