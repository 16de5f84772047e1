#include "models/cached_model.h"

#include <algorithm>
#include <unordered_map>

#include "core/check.h"
#include "models/label_map.h"
#include "models/model_error.h"

namespace assay::models {

CachedModel::CachedModel(std::unique_ptr<Model> inner, std::shared_ptr<AnswerCache> cache,
                         CachedModelOptions options)
    : inner_(std::move(inner)),
      cache_(std::move(cache)),
      options_(options),
      identity_(inner_->identity()) {
  ASSAY_CHECK(cache_ && options_.batch_size > 0);
  labels_ = cache_->labels(identity_);
}

const std::vector<std::string>& CachedModel::labels() const {
  if (!labels_) {
    labels_ = inner_->labels();
    cache_->store_labels(identity_, *labels_);
  }
  return *labels_;
}

std::vector<std::vector<double>> CachedModel::predict(const std::vector<std::string>& texts) {
  auto found = cache_->find(identity_, texts);
  std::vector<std::vector<double>> out(texts.size());
  // Distinct missing texts, in first-occurrence order, and where each is wanted.
  std::vector<std::string> missing;
  std::unordered_map<std::string, std::vector<std::size_t>> wanted;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (found[i]) {
      out[i] = std::move(*found[i]);
      ++n_hits_;
      continue;
    }
    auto& positions = wanted[texts[i]];
    if (positions.empty()) missing.push_back(texts[i]);
    positions.push_back(i);
  }
  std::size_t sent = 0;
  while (sent < missing.size()) {
    std::size_t n = std::min(options_.batch_size, missing.size() - sent);
    if (options_.budget) {
      const std::uint64_t left = *options_.budget > n_queries_ ? *options_.budget - n_queries_ : 0;
      n = static_cast<std::size_t>(std::min<std::uint64_t>(n, left));
      if (n == 0) {
        std::size_t n_unanswered = 0;
        for (std::size_t k = sent; k < missing.size(); ++k)
          n_unanswered += wanted[missing[k]].size();
        throw BudgetExhausted(
            "the query budget of " + std::to_string(*options_.budget) + " texts is spent",
            n_unanswered);
      }
    }
    if (!labels_checked_) {
      const auto& stored = labels();
      if (inner_->labels() != stored) {
        throw ModelError(identity_ + " names its scores (" + listed_labels(inner_->labels()) +
                         ") but the answers cached for it in " + cache_->path() + " name them (" +
                         listed_labels(stored) + "); use another cache file");
      }
      labels_checked_ = true;
    }
    const std::vector<std::string> chunk(missing.begin() + static_cast<std::ptrdiff_t>(sent),
                                         missing.begin() + static_cast<std::ptrdiff_t>(sent + n));
    std::vector<std::vector<double>> scores;
    try {
      scores = inner_->predict(chunk);
    } catch (ModelError& e) {
      if (e.batch_index()) {  // re-express the position in the caller's batch
        const std::size_t position = wanted[chunk[*e.batch_index()]].front();
        throw ModelError(e.what(), position);
      }
      throw;
    }
    ASSAY_CHECK(scores.size() == chunk.size());
    n_queries_ += n;
    cache_->store(identity_, chunk, scores);
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      for (const std::size_t position : wanted[chunk[k]]) out[position] = scores[k];
    }
    sent += n;
  }
  return out;
}

std::unique_ptr<Model> open_model_with_cache(const std::string& spec, const ModelOptions& options,
                                             const std::string& cache_path,
                                             const CachedModelOptions& cache_options,
                                             CachedModel** cached) {
  std::unique_ptr<Model> model = open_model(spec, options);
  if (cached) *cached = nullptr;
  if (cache_path.empty()) return model;
  auto wrapper = std::make_unique<CachedModel>(std::move(model),
                                               std::make_shared<AnswerCache>(cache_path), cache_options);
  if (cached) *cached = wrapper.get();
  return wrapper;
}

}  // namespace assay::models
