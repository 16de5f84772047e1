// BackoffWindowScorer: NgramSynEval's masked probability of one 5-word window
//     P(w_i = t | …) = e^{s(t)} / Σ_{w ∈ V∖{<s>,</s>}} e^{s(w)},
//     s(w) = ln P(w | u v) + ln P(x | v w) + ln P(y | w x)      (window u v [t] x y)
// on a trigram SphinxTrie, with the same value as summing the 72,545 terms look-up by look-up
// (NgramSynEval's enumerating normaliser, kept as the reference) but without a trie look-up
// per candidate. Under the back-off structure a candidate w with no explicit n-gram with the
// window's neighbours — w not after v, not before x, no trigram (u v w), (v w x), (w x y) —
// scores
//     s(w) = ⌊P1(w) + bo(v) + bo(u v)⌉ + ⌊P1(x) + bo(w)⌉ + K3
// (⌊·⌉: sphinxbase's single-precision sums truncated to an integer log base 1.0001; K3 the
// constant third factor), i.e. shared back-off weights and the candidate's own unigram
// probability and back-off weight. Those "generic" scores are computed for the whole
// vocabulary from two flat float arrays in one branch-free pass (vectorised; no look-ups), the
// few candidates that do have explicit n-grams are enumerated from the model's indexes
// (bigrams after v, bigrams before x, trigrams (u v ·), (v · x), (· x y)) and their exact
// scores overwrite the generic ones, and the normaliser sums e^{c·(S(w) − S(t))} over integer
// score differences through a two-level table of powers of 1.0001. Every candidate's integer
// score equals sphinxbase's exactly (the truncation makes the generic part non-separable, so
// the sum is not a closed form); the only difference from the reference is the summation order
// and the exponential (table product vs std::exp of a rounded double): about 1e-15 relative.
//
// Thread-safe: const, with per-thread scratch (thread_local).
#pragma once

#include <array>
#include <vector>

#include "lm/sphinx_trie.h"

namespace assay::aeon {

class BackoffWindowScorer {
 public:
  // `trie` must be a trigram model (order() == 3) and outlive this object.
  explicit BackoffWindowScorer(const lm::SphinxTrie& trie);

  // window = {w_{i-2}, w_{i-1}, target, w_{i+1}, w_{i+2}}, lm::kNoWord for an OOV word or a
  // position past </s>; the target must be a word other than <s>/</s>.
  double probability(const std::array<lm::WordId, 5>& window) const;
  // Every word's integer score S(w) in the window (log base 1.0001; tests compare it with
  // sphinxbase's look-ups).
  std::vector<int> candidate_scores(const std::array<lm::WordId, 5>& window) const;
  // The same probability with the generic candidates' normaliser in closed form: their scores
  // taken without sphinxbase's truncations (each truncation of a negative sum counted as +0.5
  // units), so that Σ over them is a precomputed vocabulary sum times a context constant; only
  // the candidates with explicit n-grams (and the target) are scored exactly. Cost: the
  // explicit candidates, not the vocabulary — still tens of thousands next to a frequent word
  // ("the"), so it saves about a third on review sentences, not an order of magnitude. Each
  // generic term is off by less than ±0.5 units of log base 1.0001 (±5e-5 relative) per
  // truncated factor; measured on the MR annotations' 3,348 windows: mean relative difference
  // from probability() 6e-8, largest 4e-6 (tests/aeon/backoff_normaliser_test.cc). Not
  // sphinxbase-exact: for gating, not for AEON's published figures.
  double separable_probability(const std::array<lm::WordId, 5>& window) const;

 private:
  struct Context;
  Context context(const std::array<lm::WordId, 5>& window) const;
  int generic_score(const Context& c, lm::WordId w) const;
  // Calls emit(index, exact integer score) for every candidate with an explicit n-gram with
  // the window's neighbours.
  template <typename Fn>
  void explicit_scores(const Context& c, Fn&& emit) const;
  double exp_units(int d) const;  // 1.0001^(−d)
  // Fills the calling thread's score array for the window and returns it.
  const int* scores(const std::array<lm::WordId, 5>& window) const;

  const lm::SphinxTrie& trie_;
  std::vector<double> exp_hi_, exp_lo_;
  std::vector<double> exp_p_, exp_pq_;  // 1.0001^P(w), 1.0001^(P(w) + Q(w))
  double sum_p_ = 0, sum_pq_ = 0;
};

}  // namespace assay::aeon
