// NgramSynEval: AEON's SynEval (Algorithm 2) without a masked LM, on an n-gram model — by
// default the CMU English trigram of Debian's pocketsphinx-en-us. The masked probability of
// the word at position i is taken from its left AND right trigram contexts and normalised
// over the whole vocabulary V (<s> and </s> excluded as candidates):
//     P(w_i = w | context) ∝ P(w | w_{i-2}, w_{i-1}) · P(w_{i+1} | w_{i-1}, w) · P(w_{i+2} | w,
//     w_{i+1})
// with <s> before the first word and </s> after the last (the </s> factor is the last one that
// exists; factors past </s> are absent). The sum over V is exact — every candidate is scored,
// in log space with a log-sum-exp — so the result is a proper distribution; the three
// per-candidate lookups are what dominates the time (docs/aeon-offline.md has the figures).
// Over all scored positions of all sentences, Nat = φ·min + (1−φ)·mean, φ = 0.6.
//
// Tokens: sentences from aeon::split_sentences, lower-cased (ASCII), split on whitespace, with
// punctuation stuck to either end of a word removed ("clean." is "clean"; a clitic keeps its
// apostrophe: "'s", "'re"); a punctuation-only token is dropped (the CMU model has no
// punctuation entries). OOV words are
// not scored as targets and cut the n-gram history where they stand in the context (the
// factors whose n-gram would contain them are left out for every candidate alike), which is
// sphinx_lm_eval's rule. A sentence without any in-vocabulary word contributes nothing; a text
// with none at all scores NaN.
//
// Probabilities are cached per sentence (a seed's unchanged sentences are scored once) and per
// 5-word window (w_{i-2} .. w_{i+2} determine the value exactly), so a mutant's positions more
// than two words from every edit cost nothing once its seed was scored. Thread-safe: the model
// is read without a lock; only the caches' maps are guarded.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aeon/syneval.h"
#include "lm/ngram_model.h"

namespace assay::aeon {

inline constexpr const char* kNgramSynEvalBackend = "ngram-cmu";

class BackoffWindowScorer;

enum class NgramNormaliser {
  kBackoff,    // back-off sums + enumerated explicit n-grams (needs a trigram lm::SphinxTrie)
  kEnumerate,  // every candidate looked up (the reference)
  // Only the target and the trigram candidates exact, every other candidate's term from
  // per-word and per-pair sums with sphinxbase's truncations at their mean (within 2e-4
  // relative of kBackoff, BackoffWindowScorer::separable_probability): for gating.
  kSeparable,
};

class NgramSynEval {
 public:
  // `model` must outlive this object. kBackoff and kSeparable fall back to kEnumerate when `model`
  // is not a trigram lm::SphinxTrie; normaliser() says which one serves.
  explicit NgramSynEval(const lm::NgramModel& model, double phi = 0.6,
                        NgramNormaliser normaliser = NgramNormaliser::kBackoff);
  ~NgramSynEval();
  NgramNormaliser normaliser() const {
    return !backoff_    ? NgramNormaliser::kEnumerate
           : separable_ ? NgramNormaliser::kSeparable
                        : NgramNormaliser::kBackoff;
  }

  SynEvalResult score(std::string_view text);
  // Masked probability of each in-vocabulary word of one sentence (cached).
  std::vector<double> sentence_probabilities(const std::string& sentence);
  // Forgets the sentence and window caches (benchmarks).
  void clear_caches();
  // Words of a sentence as the model sees them (lower case, punctuation dropped).
  static std::vector<std::string> words(std::string_view sentence);

 private:
  std::vector<double> compute(const std::string& sentence);
  double window_probability(const std::array<lm::WordId, 5>& window,
                            std::vector<double>& scratch) const;

  const lm::NgramModel& model_;
  double phi_;
  std::unique_ptr<BackoffWindowScorer> backoff_;
  bool separable_ = false;
  std::vector<lm::WordId> candidates_;  // every id but <s> and </s>
  std::mutex mutex_;
  std::unordered_map<std::string, std::vector<double>> cache_;
  struct WindowHash {
    std::size_t operator()(const std::array<lm::WordId, 5>& w) const;
  };
  std::unordered_map<std::array<lm::WordId, 5>, double, WindowHash> window_cache_;
};

}  // namespace assay::aeon
