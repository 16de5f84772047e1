// The neutral layer over classes of texts: what `fair serve` answers and `fair mitigate`
// measures, so that the two agree and the certificate holds for every pair an auditor forms.
//
// A text x belongs to the class of its representative r(x) = Perturbator::neutral_form(x): x
// with every word the perturbator may change or insert written in a form that names no group.
// A text and each of its perturbations have the same representative, so they are members of
// one class. The class's reference A is the mean of the model's outputs over the
// representative's neighbourhood: r and the first max_k perturbations of r (those the filter
// keeps) — a set that depends on the class alone, never on which member was asked. Each member
// is answered class_smooth(M(x), A, ε) (neutral_layer.h): any two members are within e^ε of
// each other, class by class, whatever the model answers for them, given that the model
// answers a text the same each time it is asked (the answer cache makes it so) and scores in
// [0, 1].
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include "fairness/neutral_layer.h"
#include "fairness/perturbation.h"
#include "fairness/perturbator.h"

namespace assay::fairness {

// Thrown when planning stops because the request it serves was already answered.
struct RequestAbandoned : std::exception {
  const char* what() const noexcept override { return "abandoned: the request was answered"; }
};

// What to ask the model for a list of texts: every distinct text once.
struct NeutralPlan {
  std::vector<std::string> texts;  // distinct texts to ask, in first-seen order
  // Per planned input: its own index in `texts`, its representative and the indices in `texts`
  // of the representative's neighbourhood (the representative first).
  std::vector<std::size_t> own;
  std::vector<std::string> representative;
  std::vector<std::vector<std::size_t>> neighbourhood;
};

// Plans `inputs`: each one's representative and the representative's neighbourhood (the
// representative and the first `max_k` perturbations of it, those `filter` keeps). The
// representatives are perturbed on `threads` threads (0: every core). Throws the perturbator's
// errors (core::ParseError for text that is not UTF-8, with "input I: " before it when there
// are several inputs). With `abandoned`, planning stops between texts once it is set and
// throws RequestAbandoned (the proxy's request was already answered 504).
NeutralPlan plan_neutral(const Perturbator& perturbator, const std::vector<std::string>& inputs,
                         std::size_t max_k, const PerturbationFilter& filter = {},
                         std::size_t threads = 1, const std::atomic<bool>* abandoned = nullptr);

struct NeutralClassAnswer {
  ClassSmoothed smoothed;         // f(x), its label, λ
  std::vector<double> reference;  // A
  std::size_t k = 0;              // perturbations in the neighbourhood
};

// Planned input `i`'s answer at `epsilon`, from `outputs` (the model's, one per plan.texts).
// Throws class_smooth's errors (scores outside [0, 1]).
NeutralClassAnswer answer_planned(const NeutralPlan& plan, std::size_t i,
                                  const std::vector<std::vector<double>>& outputs, double epsilon);

}  // namespace assay::fairness
