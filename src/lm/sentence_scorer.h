// Sentence log-probabilities and the Ge et al. (2018) fluency score on any NgramModel.
//
// A sentence w1..wn is scored as ln P(w1 | <s>) + ... + ln P(</s> | ... wn): <s> is context
// only (never scored) and </s> is scored and counted as a token, as in sphinx_lm_eval when the
// sentence is written "<s> w1 .. wn </s>". Words are looked up as given (the CMU model is
// lower case; folding case is the caller's choice).
//
// Fluency (Ge, Wei, Zhou, ACL 2018, used by MT-NLP's perturbation filter):
//   f(x) = 1 / (1 + H(x)),   H(x) = -(1/|x|) sum_i ln P(x_i | x_<i)
// with natural logarithms and |x| = n_tokens (the scored words plus </s>).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lm/ngram_model.h"

namespace assay::lm {

enum class OovPolicy {
  // sphinx_lm_eval's rule: an OOV word is not scored and not counted in n_tokens, and the
  // history restarts after it. Sentence scores then equal sphinx_lm_eval's "lm score".
  kSkip,
  // KenLM's rule: an OOV word is scored as the model's unknown-word token (or with
  // ScoreOptions::oov_log10_prob when the model has none) and counts as a token, so OOV words
  // lower fluency.
  kUnknownToken,
};

struct ScoreOptions {
  OovPolicy oov = OovPolicy::kSkip;
  // log10 probability of an OOV word under kUnknownToken when the model has no <unk>.
  double oov_log10_prob = -7.0;
  // Wrap the words in <s> ... </s>. Without boundaries the first word has an empty history
  // and no </s> is scored.
  bool sentence_boundaries = true;
};

struct TokenScore {
  WordId id = kNoWord;     // kNoWord for an OOV word
  double log_prob = 0;     // natural log; 0 for a skipped OOV word
  bool oov = false;
  bool scored = false;     // counted in n_tokens
};

struct SentenceScore {
  double log_prob = 0;       // natural log of the sentence probability (scored tokens)
  std::size_t n_tokens = 0;  // scored tokens, </s> included
  std::size_t n_oov = 0;
  std::vector<TokenScore> tokens;  // one per input word, then </s> when boundaries are on

  // Per-token cross-entropy H in nats; NaN when nothing was scored.
  double cross_entropy() const;
  // 1 / (1 + H); NaN when nothing was scored.
  double fluency() const;
};

SentenceScore score_sentence(const NgramModel& model, std::span<const std::string> words,
                             const ScoreOptions& options = {});
SentenceScore score_sentence(const NgramModel& model, std::span<const std::string_view> words,
                             const ScoreOptions& options = {});

// Splits on ASCII whitespace (the input convention of sphinx_lm_eval and `assay lm score`).
std::vector<std::string> split_words(std::string_view sentence);

}  // namespace assay::lm
