// NgramModel: the interface every n-gram language model backend implements (the CMU trigram
// through libsphinxbase, ARPA files through our own reader). Scores are natural logarithms.
//
// Words are addressed by dense ids 0..vocabulary_size()-1, so callers can iterate the
// vocabulary (the AEON n-gram SynEval normalises over it). An out-of-vocabulary word has no id
// (find() returns kNoWord); how OOV words are scored is a policy of SentenceScorer, not of the
// model. Implementations are immutable after construction and safe to query from many threads.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace assay::lm {

using WordId = std::int32_t;
inline constexpr WordId kNoWord = -1;

class NgramModel {
 public:
  virtual ~NgramModel() = default;

  // Short description of the backend and file, e.g. "cmu-trigram:/usr/share/...".
  virtual std::string_view name() const = 0;
  // Longest n-gram the model stores (3 for a trigram model).
  virtual int order() const = 0;
  virtual WordId vocabulary_size() const = 0;
  // The spelling of `id` (0 <= id < vocabulary_size()).
  virtual std::string_view word(WordId id) const = 0;
  // The id of `word`, or kNoWord when it is out of vocabulary. Case-sensitive.
  virtual WordId find(std::string_view word) const = 0;
  // The id of the model's unknown-word token (<unk>/<UNK>), or kNoWord when it has none.
  virtual WordId unknown() const = 0;
  virtual WordId begin_sentence() const = 0;  // <s>
  virtual WordId end_sentence() const = 0;    // </s>

  // ln P(word | context). `context` is in text order (oldest first); only its last order()-1
  // entries are used, and a kNoWord entry cuts the history there (only the words after it
  // count), which is how sphinxbase treats an OOV word in the history. `word` must be a valid
  // id (ASSAY_CHECK).
  virtual double log_prob(WordId word, std::span<const WordId> context) const = 0;
};

}  // namespace assay::lm
