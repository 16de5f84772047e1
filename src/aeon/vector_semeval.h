// VectorSemEval: AEON's SemEval (Algorithm 1) without a transformer, on static word vectors
// plus WordNet knowledge, or on WordNet alone. The structure is the reference code's: split
// both texts into sentences, drop identical sentence pairs (different counts: the whole texts
// form one pair), align each remaining pair's word sequences by Levenshtein distance, open a
// patch [max(i−2,0), i+2) at every edit (overlaps merge), and combine
//     Sim = λ1·min(patch sim) + λ2·mean(patch sim) + (1−λ1−λ2)·sim(whole texts),  clamped to [0,
//     1].
// Words: lower-cased, whitespace-split (punctuation tokens kept for the alignment).
//
// "vectors+wordnet": a span's embedding is the mean of its words' unit vectors (words without
// a vector are left out) and sim is the cosine. WordNet adjusts the substituted word pairs of
// the alignment before embedding: a synonym (shared synset) takes the original word's vector,
// an antonym takes its negation — antonyms are distributionally close, so vectors alone would
// call "good" → "bad" consistent. A span with no vector on one side falls back to the lexical
// similarity below.
// "wordnet" (no vector file): sim of two aligned spans = (matched words + Σ word-pair
// similarity of the substituted pairs) / max(span lengths), where a pair scores 1 for
// synonyms, −1 for antonyms, else WordNet's path similarity (0 when unrelated).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aeon/semeval.h"
#include "aeon/wordnet_relations.h"
#include "vectors/embedding_matrix.h"

namespace assay::aeon {

struct VectorSemEvalOptions {
  double lambda1 = 0.1;
  double lambda2 = 0.2;
  std::size_t patch_radius = 2;
};

class VectorSemEval {
 public:
  // `vectors` may be null (WordNet only). Both must outlive this object.
  VectorSemEval(const vectors::EmbeddingMatrix* vectors, const WordNetRelations& wordnet,
                VectorSemEvalOptions options = {});

  SemEvalResult score(std::string_view original, std::string_view generated) const;
  // "vectors+wordnet" or "wordnet".
  const char* backend() const { return vectors_ ? "vectors+wordnet" : "wordnet"; }
  // Similarity of one substituted word pair in the WordNet-only mode (kept per pair: a
  // generator swaps the same pairs again and again). Thread-safe.
  double word_similarity(const std::string& a, const std::string& b) const;

 private:
  struct Aligned;
  double span_similarity(const Aligned& al, std::size_t a_begin, std::size_t a_end,
                         std::size_t b_begin, std::size_t b_end) const;

  const vectors::EmbeddingMatrix* vectors_;
  const WordNetRelations& wordnet_;
  VectorSemEvalOptions options_;
  mutable std::mutex pairs_mutex_;
  mutable std::unordered_map<std::string, double> pair_similarity_;  // "a\0b"
};

}  // namespace assay::aeon
