// ArpaModel: a back-off n-gram model read from an ARPA text file (SRILM / KenLM format):
//
//   \data\            ngram 1=<count> ... ngram N=<count>
//   \1-grams:         <log10 prob> <w1> [<log10 backoff>]
//   ...
//   \N-grams:         <log10 prob> <w1> ... <wN>          (no backoff at the highest order)
//   \end\            (required: a file without it is truncated)
//
// Read through core::LineReader. Validated: the \data\ header and its consecutive orders, each
// section's header and its declared count, field counts, numbers (probability <= 0), words of
// higher orders present among the unigrams, duplicate n-grams, and the final \end\ (a truncated
// file is an error). Every problem is a core::ParseError naming file:line[:column].
//
// Probabilities follow the usual back-off recursion
//   log P(w | h) = log p(h w)                   if the n-gram h w is listed,
//                = log b(h) + log P(w | h')     otherwise (h' drops the oldest word; b(h) = 0
//                                               when h is not listed or has no backoff).
// When the file has no <unk> unigram one is added with log10 p = -100 (KenLM's convention), so
// unknown() is always valid for ARPA models.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lm/ngram_model.h"

namespace assay::lm {

class ArpaModel final : public NgramModel {
 public:
  // Reads `path`. Throws core::IoError when it cannot be read, core::ParseError when malformed.
  static std::unique_ptr<ArpaModel> load(const std::string& path);

  std::string_view name() const override { return name_; }
  int order() const override { return static_cast<int>(ngrams_.size()) + 1; }
  WordId vocabulary_size() const override { return static_cast<WordId>(words_.size()); }
  std::string_view word(WordId id) const override;
  WordId find(std::string_view word) const override;
  WordId unknown() const override { return unknown_; }
  WordId begin_sentence() const override { return begin_; }
  WordId end_sentence() const override { return end_; }
  double log_prob(WordId word, std::span<const WordId> context) const override;

  // log10 P(word | context), the file's own base (for tests against hand-computed values).
  double log10_prob(WordId word, std::span<const WordId> context) const;

 private:
  friend class ArpaReader;
  struct Entry {
    float log10_prob = 0;
    float log10_backoff = 0;
  };
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using NgramMap = std::unordered_map<std::string, Entry, KeyHash, std::equal_to<>>;

  ArpaModel() = default;
  // Entry of the n-gram ids[0..n) (n >= 2), or nullptr.
  const Entry* lookup(const WordId* ids, std::size_t n) const;

  std::string name_;
  std::vector<std::string> words_;
  std::unordered_map<std::string, WordId, KeyHash, std::equal_to<>> ids_;
  std::vector<Entry> unigrams_;
  std::vector<NgramMap> ngrams_;  // ngrams_[k] holds the (k+2)-grams keyed by their id bytes
  WordId unknown_ = kNoWord;
  WordId begin_ = kNoWord;
  WordId end_ = kNoWord;
};

}  // namespace assay::lm
