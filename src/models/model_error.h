// ModelError: a model under test answered wrongly or not at all (a child that crashed past its
// restarts, malformed JSON, a score vector of the wrong length, NaN, an HTTP error after the
// retries). The message names the adapter and what was expected; `batch_index` says which text
// of the batch given to predict() it concerns, so the caller can name the input line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace assay::models {

class ModelError : public core::Error {
 public:
  ModelError(std::string message, std::optional<std::size_t> batch_index = std::nullopt)
      : core::Error(std::move(message)), batch_index_(batch_index) {}
  const std::optional<std::size_t>& batch_index() const { return batch_index_; }

 private:
  std::optional<std::size_t> batch_index_;
};

// The query budget (CachedModel) is spent: the texts answered so far are in the cache and
// `n_unanswered` texts of this predict() call were not sent.
class BudgetExhausted : public core::Error {
 public:
  BudgetExhausted(std::string message, std::size_t n_unanswered)
      : core::Error(std::move(message)), n_unanswered_(n_unanswered) {}
  std::size_t n_unanswered() const { return n_unanswered_; }

 private:
  std::size_t n_unanswered_;
};

// An interrupt (SIGINT, SIGTERM, SIGHUP; core/interrupt.h) stopped predict() while a deferral
// was active: `answers` holds, for each text of the batch, the scores received before it
// stopped (empty when none), so the caller can keep them (CachedModel stores them).
class InterruptedBatch : public core::Error {
 public:
  explicit InterruptedBatch(std::vector<std::vector<double>> answers)
      : core::Error("interrupted"), answers_(std::move(answers)) {}
  const std::vector<std::vector<double>>& answers() const { return answers_; }

 private:
  std::vector<std::vector<double>> answers_;
};

}  // namespace assay::models
