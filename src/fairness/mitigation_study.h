// The neutral layer measured as MT-NLP's Fig. 5 does (`assay fair mitigate`): given the model's
// answers for every mutable input and its perturbations (answer_inputs, the texts `fair test`
// asks), every one of those texts is answered as `fair serve` answers it (neutral_class.h: its
// class's neighbourhood asked of the model too), and for each ε the violations that remain
// (argmax f(x') ≠ argmax f(x0)) are counted as a percentage of those before, with the largest
// realised ε over the pairs (x0, x') of one class and the pairs whose texts fall in two classes
// (outside the certificate). Beside it, for the paper's figure: Theorem 1's weighting within
// each input's own set {x0} ∪ S (neutral_smooth, (ε, k)-fair at x0 only) and the reference
// code's (which certifies ln(1 + e^ε)); the cost is the texts asked per input and the wall
// time. Optionally the paper's "LR Base": the built-in LR retrained on its training data plus
// every perturbation of that data (each with its original's label), asked about the same test
// inputs and perturbations. The results are mitigation.json's and mitigation.csv's content.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fairness/fairness_test_runner.h"
#include "fairness/perturbator.h"
#include "models/cached_model.h"
#include "models/model.h"
#include "models/text_input.h"

namespace assay::fairness {

// The adversarial-training comparison: the built-in LR's labelled training data.
struct AdversarialTraining {
  std::string path;  // the file as given (named in mitigation.json and in errors)
  std::vector<models::TextRecord> records;
  std::vector<std::string> labels;  // each record's label, as the model under test names it
  double c = 1.0;                   // inverse regularisation of the retrained LR
  std::string model_out;            // where to save the retrained LR ("" nowhere)
};

struct MitigationStudyOptions {
  std::vector<double> epsilons = {0.1, 0.5, 1, 1.8, 5, 10};  // finite, >= 0
  std::optional<AdversarialTraining> adversarial;
  std::size_t threads = 0;  // threads perturbing (0 = every core)
  // The class layer as `fair serve` runs it: perturbations of a representative asked (its
  // --max-k), the filter applied to them, texts per predict() call for the neighbourhoods.
  std::size_t max_k = 16;
  PerturbationFilter filter;
  std::size_t batch = 64;
  // When the run started and when its model began to be asked (the cost's wall times).
  std::chrono::steady_clock::time_point started, asking;
};

// What one ε left (as the study reports it on its way).
struct EpsilonOutcome {
  double epsilon = 0;
  std::size_t violations_before = 0, violations = 0, reference_violations = 0;
  std::size_t input_set_violations = 0;  // Theorem 1 within each input's own set
  std::size_t pairs_outside_class = 0;   // pairs the certificate does not cover
};

// mitigation.json's "format" (`fair report` reads a file without one as this format too).
inline constexpr const char* kMitigationFormat = "assay-fair-mitigation/1";

struct MitigationStudy {
  nlohmann::ordered_json json;  // mitigation.json
  std::string csv;              // mitigation.csv
  std::size_t n_inputs = 0, n_mutable = 0, n_perturbations = 0, violations_before = 0;
};

// The study of `answers` (complete: every mutable input of the `n_inputs` inputs, in order;
// gold[i]: the position of input i's label among the model's labels, if it has one) for the
// model under test `model` (its identity and labels; `cached`, when given, its answer cache's
// counts) perturbed by `perturbator`. `on_epsilon` is called after each ε (when given). Throws
// the errors of neutral_smooth and, with adversarial training, of the perturbator on the
// training data (at the record's location) and of the LR's training (at the file) and saving.
MitigationStudy study_mitigation(const Perturbator& perturbator, models::Model& model,
                                 const models::CachedModel* cached, std::size_t n_inputs,
                                 const std::vector<std::optional<std::size_t>>& gold,
                                 FairnessAnswers answers, const MitigationStudyOptions& options,
                                 const std::function<void(const EpsilonOutcome&)>& on_epsilon);

}  // namespace assay::fairness
