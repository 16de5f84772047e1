#include "models/cached_model.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "core/check.h"
#include "core/error.h"
#include "core/excerpt.h"
#include "core/interrupt.h"
#include "models/batched_model.h"
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
  // Checked when the model is opened: a run may reuse whole finished chunks of the same cache
  // file (core/chunked_run.h) and so never read an answer one by one.
  warn_if_stale();
}

const std::vector<std::string>& CachedModel::labels() const {
  if (!labels_) {
    labels_ = inner_->labels();
    cache_->store_labels(identity_, *labels_);
  }
  return *labels_;
}

void CachedModel::warn_if_stale() {
  const auto files = inner_->files_outside_identity();
  if (files.empty()) return;
  const auto since = cache_->first_stored(identity_);
  if (!since) return;
  for (const auto& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0) continue;
    const double modified = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
    if (modified <= *since) continue;
    const std::string message = core::escape_control(
        "assay: warning: " + f + " changed after the cached answers of " + identity_ + " in " +
        cache_->path() +
        " were stored; they are used anyway, since the model's identity covers only the files "
        "on its command line. If the answers depend on it, add --model-file " +
        f);
    std::fprintf(stderr, "%s\n", message.c_str());
    return;
  }
}

std::vector<std::vector<double>> CachedModel::predict(const std::vector<std::string>& texts) {
  auto found = cache_->find(identity_, texts);
  std::vector<std::vector<double>> out(texts.size());
  // Distinct missing texts, in first-occurrence order, and where each is wanted.
  std::vector<std::string> missing;
  std::unordered_map<std::string, std::vector<std::size_t>> wanted;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (found[i] && labels_ && found[i]->size() != labels_->size()) {  // a tampered row
      throw core::ParseError(core::SourceLocation(cache_->path()),
                             "a cached answer of " + identity_ + " has " +
                                 std::to_string(found[i]->size()) + " scores for " +
                                 std::to_string(labels_->size()) + " labels (" +
                                 listed_labels(*labels_) + "); delete the cache file");
    }
    if (found[i]) {
      out[i] = std::move(*found[i]);
      ++n_hits_;
      continue;
    }
    auto& positions = wanted[texts[i]];
    if (positions.empty()) missing.push_back(texts[i]);
    positions.push_back(i);
  }
  // An interrupt while the model is asked is honoured once the answers received are stored.
  const core::InterruptDeferral defer;
  std::size_t sent = 0;
  while (sent < missing.size()) {
    if (core::interrupt_pending()) throw InterruptedBatch({});  // the deferral's end exits
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
    } catch (const InterruptedBatch& e) {
      // Keep every answer received before the interrupt; the deferral's end then exits.
      std::vector<std::string> answered_texts;
      std::vector<std::vector<double>> answered_scores;
      for (std::size_t k = 0; k < chunk.size() && k < e.answers().size(); ++k) {
        if (e.answers()[k].empty()) continue;
        answered_texts.push_back(chunk[k]);
        answered_scores.push_back(e.answers()[k]);
      }
      if (!answered_texts.empty()) cache_->store(identity_, answered_texts, answered_scores);
      throw;
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

namespace {

// `model` behind `cache` (itself without one).
std::unique_ptr<Model> behind_cache(std::unique_ptr<Model> model,
                                    std::shared_ptr<AnswerCache> cache,
                                    const CachedModelOptions& cache_options, CachedModel** cached) {
  if (cached) *cached = nullptr;
  if (!cache) return model;
  auto wrapper = std::make_unique<CachedModel>(std::move(model), std::move(cache), cache_options);
  if (cached) *cached = wrapper.get();
  return wrapper;
}

}  // namespace

std::unique_ptr<Model> open_model_with_cache(const std::string& spec, const ModelOptions& options,
                                             std::shared_ptr<AnswerCache> cache,
                                             const CachedModelOptions& cache_options,
                                             CachedModel** cached) {
  return behind_cache(open_model(spec, options), std::move(cache), cache_options, cached);
}

std::unique_ptr<Model> open_model_with_cache(const std::string& spec, const ModelOptions& options,
                                             const std::string& cache_path,
                                             const CachedModelOptions& cache_options,
                                             CachedModel** cached) {
  std::unique_ptr<Model> model = open_model(spec, options);
  return behind_cache(std::move(model),
                      cache_path.empty() ? nullptr : std::make_shared<AnswerCache>(cache_path),
                      cache_options, cached);
}

void check_answer_cache_settings(const AnswerCacheSettings& settings) {
  if (settings.batch == 0) throw core::UsageError("batch: expected at least 1 text per call");
  if (settings.budget && settings.path.empty()) {
    throw core::UsageError(
        "a query budget needs an answer cache file (where the answered texts are kept so a "
        "rerun can continue)");
  }
}

ModelUnderTest behind_answer_cache(std::unique_ptr<Model> model,
                                   const AnswerCacheSettings& settings) {
  check_answer_cache_settings(settings);
  ModelUnderTest out;
  out.cache = settings.path;
  if (settings.path.empty()) {
    out.model = std::make_unique<BatchedModel>(std::move(model), settings.batch);
  } else {
    out.model = behind_cache(std::move(model), std::make_shared<AnswerCache>(settings.path),
                             {settings.budget, settings.batch}, &out.cached);
  }
  return out;
}

}  // namespace assay::models
