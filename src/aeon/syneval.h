// SynEval (AEON Algorithm 2): naturalness Nat(x̂) ∈ (0, 1] from a BERT masked LM (default:
// bert-base-uncased), per ../shared/spec/aeon.md. For every sentence and every WordPiece
// position (not [CLS]/[SEP]) the token is replaced by [MASK] and the masked LM's softmax
// probability of the original token is taken; over all positions of the text,
//     Nat = φ·min + (1−φ)·mean,  φ = 0.6.
// All masked copies of a sentence run as one padded encoder batch (split only beyond
// max_batch copies), with the MLM head evaluated at the masked positions only. The
// probabilities are cached per sentence text, so a seed's unchanged sentences are scored once
// for all of its mutants. score() is safe to call from several threads (the cache is locked;
// a sentence two threads miss at once is computed twice, with identical results).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lm/bert_model.h"
#include "lm/wordpiece_tokenizer.h"

namespace assay::aeon {

struct SynEvalOptions {
  double phi = 0.6;
  std::size_t max_length = 512;  // tokens per sentence, [CLS]/[SEP] included
  std::size_t max_batch = 512;   // masked copies per encoder batch
};

struct SynEvalResult {
  double nat = 1.0;  // NaN when the text has no token at all
  double min_prob = 1.0;
  double mean_prob = 1.0;
  std::size_t n_tokens = 0;
};

class SynEval {
 public:
  // Throws UsageError when the checkpoint has no MLM head. `model` and `vocab` must outlive it.
  SynEval(const lm::BertModel& model, const lm::BertVocab& vocab, SynEvalOptions options = {});

  SynEvalResult score(std::string_view text);
  // Probability of each token of one sentence under masking (cached).
  std::vector<double> sentence_probabilities(const std::string& sentence);
  // Sentences actually run through the model so far (cache misses).
  std::size_t n_sentences_computed() const;

 private:
  std::vector<double> compute(const std::string& sentence) const;

  const lm::BertModel& model_;
  lm::WordpieceTokenizer tokenizer_;
  SynEvalOptions options_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::vector<double>> cache_;
  std::size_t n_computed_ = 0;
};

}  // namespace assay::aeon
