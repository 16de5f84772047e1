// EmbeddingMatrix: a vocabulary and its vectors as one contiguous float32 row-major matrix of
// unit-length rows (row i is word i in file order, so a prefix of the rows is "the N most
// frequent words" for frequency-sorted files such as word2vec, GloVe and fastText outputs).
//
// Rows are normalised once at construction (norm computed in double); a zero vector stays
// zero, so its cosine with anything is 0 (gensim would produce NaN). The original lengths are
// kept for inspection. Immutable after construction; safe to share between threads.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace assay::vectors {

class EmbeddingMatrix {
 public:
  EmbeddingMatrix() = default;
  // `values` holds words.size() rows of `dim` floats. Words must be unique (the readers drop
  // later duplicates); ASSAY_CHECK on violated preconditions.
  EmbeddingMatrix(std::vector<std::string> words, std::vector<float> values, std::size_t dim);

  std::size_t size() const { return words_.size(); }
  std::size_t dim() const { return dim_; }
  const std::string& word(std::size_t i) const { return words_[i]; }
  const std::vector<std::string>& words() const { return words_; }
  std::optional<std::size_t> find(std::string_view word) const;
  // Unit-length (or zero) row i.
  std::span<const float> row(std::size_t i) const { return {values_.data() + i * dim_, dim_}; }
  const float* data() const { return values_.data(); }
  // Length of row i before normalisation.
  float norm(std::size_t i) const { return norms_[i]; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> words_;
  std::vector<float> values_;
  std::vector<float> norms_;
  std::size_t dim_ = 0;
  std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> index_;
};

}  // namespace assay::vectors
