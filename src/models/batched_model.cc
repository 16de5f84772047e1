#include "models/batched_model.h"

#include <algorithm>
#include <utility>

#include "core/error.h"
#include "models/model_error.h"

namespace assay::models {

BatchedModel::BatchedModel(std::unique_ptr<Model> inner, std::size_t batch)
    : inner_(std::move(inner)), batch_(batch) {
  if (batch_ == 0) throw core::UsageError("the texts per call to a model must be at least 1");
}

std::vector<std::vector<double>> BatchedModel::predict(const std::vector<std::string>& texts) {
  if (texts.size() <= batch_) return inner_->predict(texts);
  std::vector<std::vector<double>> out;
  out.reserve(texts.size());
  for (std::size_t begin = 0; begin < texts.size(); begin += batch_) {
    const std::size_t end = std::min(texts.size(), begin + batch_);
    const std::vector<std::string> chunk(texts.begin() + static_cast<std::ptrdiff_t>(begin),
                                         texts.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<std::vector<double>> scores;
    try {
      scores = inner_->predict(chunk);
    } catch (ModelError& e) {
      // The position in the caller's list, not in the chunk.
      if (e.batch_index()) throw ModelError(e.what(), begin + *e.batch_index());
      throw;
    }
    for (auto& s : scores) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace assay::models
