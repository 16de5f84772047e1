// CachedModel: a Model that answers from an AnswerCache and asks the wrapped model only for
// texts it has not answered before (keyed by the wrapped model's identity and the exact text).
// Texts repeated within a batch are asked once. New answers are stored after every chunk of at
// most `batch_size` texts, in one transaction per chunk. While the wrapped model is asked, an
// interrupt (SIGINT, SIGTERM, SIGHUP) is deferred (core::InterruptDeferral): the adapter stops
// and reports the answers it received (InterruptedBatch), they are stored, and only then does
// the process exit; so a rerun never asks a text whose answer was received.
//
// The labels are stored beside the answers: a model whose every answer is cached is never
// asked anything, not even its labels (a cmd: child is not started). The first time the
// wrapped model is asked, its labels must be those stored, or predict() throws ModelError.
//
// When the cache holds answers of the model and a file it names in files_outside_identity()
// (a module beside a cmd: script) changed after its first answer was stored, a warning says so
// once: the answers are still used (the identity rule, docs/models.md), and --model-file makes
// the file part of the identity. It is given when the model is opened, since a run may reuse
// whole finished chunks (core/chunked_run.h) without reading an answer.
//
// A query budget bounds how many texts are sent to the wrapped model over the CachedModel's
// life. When a predict() call needs more, the texts that fit are asked and stored, then it
// throws BudgetExhausted saying how many texts of the call were left unanswered; a rerun with
// the same cache continues where it stopped.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/answer_cache.h"
#include "models/model.h"
#include "models/model_spec.h"

namespace assay::models {

struct CachedModelOptions {
  std::optional<std::uint64_t> budget;  // texts the wrapped model may be asked; none: unlimited
  std::size_t batch_size = 64;          // texts per call to the wrapped model
};

class CachedModel : public Model {
 public:
  CachedModel(std::unique_ptr<Model> inner, std::shared_ptr<AnswerCache> cache,
              CachedModelOptions options = {});

  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  // The stored labels, or the wrapped model's (then stored).
  const std::vector<std::string>& labels() const override;
  std::string identity() const override { return identity_; }
  void cancel() override { inner_->cancel(); }

  std::uint64_t n_hits() const { return n_hits_; }
  std::uint64_t n_queries() const { return n_queries_; }
  Model& inner() { return *inner_; }

 private:
  // The warning described above, when it applies.
  void warn_if_stale();

  std::unique_ptr<Model> inner_;
  std::shared_ptr<AnswerCache> cache_;
  CachedModelOptions options_;
  std::string identity_;
  mutable std::optional<std::vector<std::string>> labels_;  // stored or learnt
  bool labels_checked_ = false;  // the wrapped model's labels were compared with labels_
  std::uint64_t n_hits_ = 0;
  std::uint64_t n_queries_ = 0;
};

// The model `spec` names (open_model), behind the answer cache in `cache_path` unless that is
// empty. `cached`, when given, receives the cache layer (for its hit and query counts) or
// nullptr without a cache. The one way commands open the model under test.
std::unique_ptr<Model> open_model_with_cache(const std::string& spec, const ModelOptions& options,
                                             const std::string& cache_path,
                                             const CachedModelOptions& cache_options,
                                             CachedModel** cached = nullptr);
// The same behind `cache` (shared by every model opened with it, as the workers of a server
// share one), or without a cache when it is null.
std::unique_ptr<Model> open_model_with_cache(const std::string& spec, const ModelOptions& options,
                                             std::shared_ptr<AnswerCache> cache,
                                             const CachedModelOptions& cache_options,
                                             CachedModel** cached = nullptr);

// How a run asks its model under test: through the answer cache in `path` ("" none; the file
// keeps the answers, and a run's finished chunks beside them, so a rerun resumes), at most
// `budget` new texts (only with a cache), `batch` texts per call to the model.
struct AnswerCacheSettings {
  std::string path;
  std::optional<std::uint64_t> budget;
  std::size_t batch = 64;
};

// Throws core::UsageError for a batch of 0 and a budget without a cache file.
void check_answer_cache_settings(const AnswerCacheSettings& settings);

// A run's model under test, as it is asked.
struct ModelUnderTest {
  std::unique_ptr<Model> model;
  CachedModel* cached = nullptr;  // the cache layer of `model`, if it has one
  std::string cache;              // the cache's file ("" none)
};

// `model` (opened by the caller: open_model, a Python callable) behind the answer cache of
// `settings`, or asked at most settings.batch texts per call (BatchedModel) without one.
// Throws the errors of check_answer_cache_settings and of opening the cache.
ModelUnderTest behind_answer_cache(std::unique_ptr<Model> model,
                                   const AnswerCacheSettings& settings);

}  // namespace assay::models
