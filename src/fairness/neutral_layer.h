// The neutral layer of MT-NLP (Theorem 1, ../shared/spec/fairness.md "Certified mitigation"):
// the model's outputs on X = {x0} ∪ S (an input and its k = |S| perturbations) are mixed so
// that no member of X can be told apart from another by more than a factor e^ε:
//
//   f(x_i) = ( e^ε · M(x_i) + Σ_{j≠i} M(x_j) ) / ( e^ε + k )
//
// For non-negative outputs (probabilities) f(x_i) ≤ e^ε · f(x_j) element-wise for all i, j:
// f is (ε, k)-fair at x0. ε = 0 gives the plain mean, ε → ∞ gives M itself. The smoothed
// label is argmax f(x0).
//
// The reference code of the paper weights x_i by (e^ε + 1)/(e^ε + k + 1) and every other
// member by 1/(e^ε + k + 1), on scores centred at 0. On non-negative outputs that is the form
// above with e^ε replaced by e^ε + 1, so it certifies ln(1 + e^ε), not ε (on centred, signed
// scores no multiplicative bound holds at all). reference_smooth() reproduces it so that
// realised_epsilon() can measure it beside ours.
#pragma once

#include <cstddef>
#include <vector>

namespace assay::fairness {

// (ε, k)-fairness at x0: the ε guaranteed and k = |S|.
struct NeutralCertificate {
  double epsilon = 0;
  std::size_t k = 0;
};

struct SmoothedOutputs {
  // f(x_i) for x_0 (the original) then each member of S, in the order given.
  std::vector<std::vector<double>> scores;
  std::size_t label = 0;  // argmax of scores[0] (the first on ties)
  NeutralCertificate certificate;
};

// The provable weighting. outputs[0] = M(x0), outputs[1..k] = M(S); every vector of the same,
// non-zero size, every score finite and ≥ 0; epsilon finite and ≥ 0. Computed as
// (M_i + e^-ε Σ_{j≠i} M_j) / (1 + k e^-ε), so large ε neither overflows nor loses M.
// Throws core::UsageError for a bad ε and core::Error naming the output and score (and saying
// the layer needs non-negative scores such as probabilities) for NaN, ±∞ or a negative score,
// a size mismatch or no outputs at all.
SmoothedOutputs neutral_smooth(const std::vector<std::vector<double>>& outputs, double epsilon);

// The reference code's weighting, for measurement: x_i weighted (e^ε + 1)/(e^ε + k + 1), each
// other member 1/(e^ε + k + 1). With `centre`, every smoothed vector is returned minus 1/n
// (n classes; for two classes p − 0.5, whose sign decides the label) as the reference code
// does; the label (argmax) is the same either way. `certificate.epsilon` is what it really
// certifies on non-negative outputs: ln(1 + e^ε). Same preconditions and errors as above.
SmoothedOutputs reference_smooth(const std::vector<std::vector<double>>& outputs, double epsilon,
                                 bool centre = false);

// The smallest ε' with f(x_i) ≤ e^ε' f(x_j) element-wise for all i, j of `scores`: the
// largest ln(max_i f_i[c] / min_i f_i[c]) over classes c; 0 for equal vectors (0/0 counts as
// equal), +∞ when some score is 0 where another is positive. Preconditions as above
// (non-negative, finite, equal sizes).
double realised_epsilon(const std::vector<std::vector<double>>& scores);

// The layer over a class of texts, which `fair serve` deploys and `fair mitigate` measures
// (neutral_class.h). Every member x of one class is answered
//
//   f(x) = (1 − λ) · M(x) + λ · A,    λ = max_c 1 / (1 + A_c · (e^ε − 1))
//
// where A, the class's reference, is one vector for the whole class. For scores in [0, 1]
// (probabilities), any two members x, x' satisfy f(x)[c] ≤ e^ε · f(x')[c] for every class c,
// whatever M answers for them: f(x)[c] ≤ (1 − λ) + λ A_c ≤ e^ε λ A_c ≤ e^ε f(x')[c], the middle
// step being λ ≥ 1 / (1 + A_c (e^ε − 1)). ε = 0 answers A for every member; λ → 0 as ε grows
// (f → M); a class whose reference puts 0 on some class has λ = 1. f(x) sums to 1 when M(x)
// and A do.
struct ClassSmoothed {
  std::vector<double> scores;  // f(x)
  std::size_t label = 0;       // argmax f(x) (the first on ties)
  double weight = 0;           // λ
};
// A class's reference: the mean of `outputs` (its neighbourhood's answers). Every output of the
// same non-zero size, every score in [0, 1]; throws core::Error naming the output and score
// otherwise.
std::vector<double> class_reference(const std::vector<std::vector<double>>& outputs);
// λ for `reference` at `epsilon` (finite, ≥ 0; core::UsageError otherwise).
double class_weight(const std::vector<double>& reference, double epsilon);
// f(x) for a member whose model output is `output` (scores in [0, 1], the reference's size).
ClassSmoothed class_smooth(const std::vector<double>& output, const std::vector<double>& reference,
                           double epsilon);

}  // namespace assay::fairness
