// Fluency of Ge et al. (2018) for the perturbator's filter: f(x) = 1 / (1 + H(x)) with
// H(x) = −(1/|x|) Σ ln P(x_i | x_<i) under an n-gram model, on the lower-cased tokens of the
// text wrapped in <s> … </s> (</s> scored and counted). An out-of-vocabulary word is scored
// as ln 10^oov_log10_prob and counted (lm::OovPolicy::kUnknownToken for a model without
// <unk>), so a substitute the model has never seen lowers fluency instead of being skipped.
// The full score equals lm::score_sentence with those options.
//
// A perturbation changes a few adjacent words, and an n-gram model looks back order−1 words,
// so rescore() recomputes only the positions whose history changed: the cost per perturbation
// is a handful of lookups, whatever the length of the review.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lm/ngram_model.h"

namespace assay::fairness {

struct ScoredWords {
  std::vector<lm::WordId> ids;    // <s>, the words, </s>; kNoWord for an OOV word
  std::vector<double> log_probs;  // per position; [0] (<s>) is 0
  double log_prob = 0;            // sum over positions 1..n+1
  std::size_t n_tokens() const { return ids.size() - 1; }
  double fluency() const;
};

class FluencyScorer {
 public:
  // `model` must outlive the scorer.
  explicit FluencyScorer(const lm::NgramModel& model, double oov_log10_prob = -7.0);

  ScoredWords score(const std::vector<std::string>& words) const;
  // Fluency of `original`'s words with words [begin, end) replaced by `replacement` (an
  // insertion when begin == end), recomputing only the positions whose history changed.
  double rescore(const ScoredWords& original, std::size_t begin, std::size_t end,
                 const std::vector<std::string>& replacement) const;
  // ln P of `word` alone (unigram, for frequency comparisons); the OOV score when unknown.
  double unigram_log_prob(const std::string& word) const;

  const lm::NgramModel& model() const { return model_; }

 private:
  double position_log_prob(const std::vector<lm::WordId>& ids, std::size_t p) const;
  lm::WordId id_of(const std::string& word) const;

  const lm::NgramModel& model_;
  double oov_log_prob_;
  std::size_t history_;  // order - 1
};

}  // namespace assay::fairness
