#include "aeon/ngram_syneval.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>

#include "aeon/backoff_window_scorer.h"
#include "aeon/sentence_splitter.h"
#include "aeon/word_splitter.h"
#include "core/check.h"
#include "lm/sphinx_trie.h"

namespace assay::aeon {

NgramSynEval::NgramSynEval(const lm::NgramModel& model, double phi, NgramNormaliser normaliser)
    : model_(model), phi_(phi) {
  if (normaliser != NgramNormaliser::kEnumerate) {
    if (const auto* trie = dynamic_cast<const lm::SphinxTrie*>(&model);
        trie && trie->order() == 3) {
      backoff_ = std::make_unique<BackoffWindowScorer>(*trie);
      separable_ = normaliser == NgramNormaliser::kSeparable;
    }
  }
  candidates_.reserve(static_cast<std::size_t>(model.vocabulary_size()));
  for (lm::WordId w = 0; w < model.vocabulary_size(); ++w) {
    if (w != model.begin_sentence() && w != model.end_sentence()) candidates_.push_back(w);
  }
}

NgramSynEval::~NgramSynEval() = default;

void NgramSynEval::clear_caches() {
  const std::lock_guard lock(mutex_);
  cache_.clear();
  window_cache_.clear();
}

std::vector<std::string> NgramSynEval::words(std::string_view sentence) {
  return split_words(sentence, false);
}

std::size_t NgramSynEval::WindowHash::operator()(const std::array<lm::WordId, 5>& w) const {
  std::size_t h = 1469598103934665603ull;
  for (lm::WordId id : w) h = (h ^ static_cast<std::uint32_t>(id)) * 1099511628211ull;
  return h;
}

// window = {w_{i-2}, w_{i-1}, target, w_{i+1}, w_{i+2}}; kNoWord for OOV or beyond </s>.
double NgramSynEval::window_probability(const std::array<lm::WordId, 5>& win,
                                        std::vector<double>& score) const {
  const std::array<lm::WordId, 2> left{win[0], win[1]};
  const lm::WordId target = win[2], next = win[3], next2 = win[4];
  const bool f2 = next != lm::kNoWord;
  // With `next` OOV the history of next2 is cut before w: that factor is constant in w.
  const bool f3 = f2 && next2 != lm::kNoWord;
  double target_score = 0, best = -std::numeric_limits<double>::infinity();
  score.resize(candidates_.size());
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    const lm::WordId w = candidates_[k];
    double v = model_.log_prob(w, left);
    if (f2) {
      const std::array<lm::WordId, 2> ctx{win[1], w};
      v += model_.log_prob(next, ctx);
    }
    if (f3) {
      const std::array<lm::WordId, 2> ctx{w, next};
      v += model_.log_prob(next2, ctx);
    }
    score[k] = v;
    best = std::max(best, v);
    if (w == target) target_score = v;
  }
  double z = 0;
  for (double v : score) z += std::exp(v - best);
  return std::exp(target_score - best) / z;
}

std::vector<double> NgramSynEval::compute(const std::string& sentence) {
  std::vector<lm::WordId> s{model_.begin_sentence()};
  for (const std::string& w : words(sentence)) s.push_back(model_.find(w));
  s.push_back(model_.end_sentence());
  std::vector<double> probs, scratch;
  for (std::size_t p = 1; p + 1 < s.size(); ++p) {
    if (s[p] == lm::kNoWord) continue;  // OOV: not scored
    const std::array<lm::WordId, 5> win{p >= 2 ? s[p - 2] : lm::kNoWord, s[p - 1], s[p], s[p + 1],
                                        p + 2 < s.size() ? s[p + 2] : lm::kNoWord};
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = window_cache_.find(win); it != window_cache_.end()) {
        probs.push_back(it->second);
        continue;
      }
    }
    const bool marker = s[p] == model_.begin_sentence() || s[p] == model_.end_sentence();
    const double prob = !backoff_ || marker ? window_probability(win, scratch)
                        : separable_        ? backoff_->separable_probability(win)
                                            : backoff_->probability(win);
    probs.push_back(prob);
    const std::lock_guard lock(mutex_);
    window_cache_.emplace(win, prob);
  }
  return probs;
}

std::vector<double> NgramSynEval::sentence_probabilities(const std::string& sentence) {
  {
    const std::lock_guard lock(mutex_);
    if (auto it = cache_.find(sentence); it != cache_.end()) return it->second;
  }
  std::vector<double> probs = compute(sentence);
  const std::lock_guard lock(mutex_);
  return cache_.emplace(sentence, std::move(probs)).first->second;
}

SynEvalResult NgramSynEval::score(std::string_view text) {
  SynEvalResult r;
  double sum = 0, lo = 1.0;
  for (const std::string& sentence : split_sentences(text)) {
    for (double p : sentence_probabilities(sentence)) {
      sum += p;
      lo = std::min(lo, p);
      ++r.n_tokens;
    }
  }
  if (r.n_tokens == 0) {
    r.nat = r.min_prob = r.mean_prob = std::nan("");
    return r;
  }
  r.min_prob = lo;
  r.mean_prob = sum / static_cast<double>(r.n_tokens);
  r.nat = phi_ * r.min_prob + (1 - phi_) * r.mean_prob;
  return r;
}

}  // namespace assay::aeon
