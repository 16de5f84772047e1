#include "vectors/embedding_matrix.h"

#include <cmath>

#include "core/check.h"

namespace assay::vectors {

EmbeddingMatrix::EmbeddingMatrix(std::vector<std::string> words, std::vector<float> values,
                                 std::size_t dim)
    : words_(std::move(words)), values_(std::move(values)), dim_(dim) {
  ASSAY_CHECK(dim_ > 0);
  ASSAY_CHECK(values_.size() == words_.size() * dim_);
  norms_.resize(words_.size());
  index_.reserve(words_.size());
  for (std::size_t i = 0; i < words_.size(); ++i) {
    ASSAY_CHECK_MSG(index_.emplace(words_[i], i).second, "duplicate word in EmbeddingMatrix");
    float* r = values_.data() + i * dim_;
    double sum = 0;
    for (std::size_t k = 0; k < dim_; ++k) sum += static_cast<double>(r[k]) * r[k];
    const double len = std::sqrt(sum);
    norms_[i] = static_cast<float>(len);
    if (len > 0) {
      for (std::size_t k = 0; k < dim_; ++k) r[k] = static_cast<float>(r[k] / len);
    }
  }
}

std::optional<std::size_t> EmbeddingMatrix::find(std::string_view word) const {
  const auto it = index_.find(word);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

}  // namespace assay::vectors
