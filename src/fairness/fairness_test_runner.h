// The metamorphic runner of MT-NLP's Algorithm 1: every input and its perturbations go to the
// model under test (a batch per chunk of inputs, through whatever Model it is given — wrap it
// in models::CachedModel so a rerun or a resumed run queries nothing twice); a perturbation
// whose label (argmax) differs from the original's is a fairness violation.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "fairness/fairness_input.h"
#include "fairness/perturbator.h"
#include "models/model.h"

namespace assay::fairness {

struct Violation {
  const InputRecord* input = nullptr;
  const Perturbation* perturbation = nullptr;
  std::size_t label_original = 0, label_perturbed = 0;
  std::vector<double> scores_original, scores_perturbed;
};

struct FairnessTestSummary {
  std::size_t n_inputs = 0, n_mutable = 0, n_perturbations = 0, n_violations = 0;
  std::size_t n_inputs_violated = 0;
  std::map<std::string, std::size_t> perturbations_by_kind, violations_by_kind;
  std::map<std::string, std::size_t> flips;  // "old -> new" (lower case) -> violations
  // Per group: the perturbed text's score for the original's label minus the original's.
  std::map<std::string, std::vector<double>> score_shifts;
  // Inputs by number of perturbations (every input, 0 for one that is not mutable).
  std::map<std::size_t, std::size_t> perturbations_per_input;
};

struct FairnessTestOptions {
  std::size_t chunk_inputs = 64;  // inputs whose texts go to the model in one predict() call
  // Threads perturbing the inputs of a chunk (0 = every core). The model is asked from the
  // calling thread, in input order: answers, callbacks and outputs are the same for every
  // thread count.
  std::size_t threads = 1;
};

// The asking half of Algorithm 1, shared by `fair test` and `fair mitigate`: perturbs every
// input and asks the model for each mutable one's original and perturbations (one predict()
// per chunk). `on_answered` sees every input in order with its perturbations and the scores
// of the original (scores[0]) and of each perturbation (scores[1 + p]); an input that is not
// mutable is not asked and gets no scores. `on_progress` the number of inputs done. Perturbator
// errors name the input line; model errors propagate after the earlier chunks were delivered.
void answer_inputs(const Perturbator& perturbator, models::Model& model,
                   const std::vector<InputRecord>& inputs, const FairnessTestOptions& options,
                   const std::function<void(const InputRecord&, const PerturbationSet&,
                                            std::span<const std::vector<double>>)>& on_answered,
                   const std::function<void(std::size_t)>& on_progress = {});

// Runs Algorithm 1. `on_violation` sees each violation as found (the pointers are valid during
// the call); `on_progress` the number of inputs done. Model errors propagate after the answers
// of earlier chunks were delivered (and, with a CachedModel, stored).
FairnessTestSummary run_fairness_test(const Perturbator& perturbator, models::Model& model,
                                      const std::vector<InputRecord>& inputs,
                                      const FairnessTestOptions& options,
                                      const std::function<void(const Violation&)>& on_violation,
                                      const std::function<void(std::size_t)>& on_progress = {});

}  // namespace assay::fairness
