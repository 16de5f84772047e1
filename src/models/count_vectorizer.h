// CountVectorizer: bag of words as scikit-learn's CountVectorizer with its defaults — the text is
// lower-cased, tokens are the matches of `\b\w\w+\b` (maximal runs of two or more word
// characters), features are token counts, and the vocabulary is every training token, sorted
// (so feature i is the i-th token in code-point order, as in scikit-learn).
//
// Word characters are Python's `\w` for str patterns: Unicode letters (L*), numbers (Nd, Nl, No)
// and '_'. Lower-casing uses the simple (one code point to one code point) Unicode mapping of
// utf8proc; Python's str.lower() differs only for the few characters whose full mapping has
// more than one code point (U+0130). Input is UTF-8; a byte that is not valid UTF-8 is treated
// as a separator.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace assay::models {

// One document as (feature index, count) pairs, sorted by index, indices unique.
using SparseRow = std::vector<std::pair<std::uint32_t, double>>;

class CountVectorizer {
 public:
  CountVectorizer() = default;
  // From a vocabulary already sorted and free of duplicates (e.g. read from a model file).
  // Throws core::Error when it is not.
  explicit CountVectorizer(std::vector<std::string> vocabulary);

  // Lower-cased tokens of `text`, in order.
  static std::vector<std::string> tokenize(std::string_view text);

  // Builds the vocabulary from every token of `texts` (replacing any previous one).
  void fit(const std::vector<std::string>& texts);
  // Counts of the vocabulary's tokens in `text`; unknown tokens are ignored.
  SparseRow transform(std::string_view text) const;

  const std::vector<std::string>& vocabulary() const { return vocabulary_; }
  std::size_t size() const { return vocabulary_.size(); }

 private:
  void build_index();

  std::vector<std::string> vocabulary_;
  std::unordered_map<std::string, std::uint32_t> index_;
};

}  // namespace assay::models
