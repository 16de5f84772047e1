#include "fairness/fluency_scorer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>

namespace assay::fairness {

double ScoredWords::fluency() const {
  const std::size_t n = n_tokens();
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  return 1.0 / (1.0 + (-log_prob / static_cast<double>(n)));
}

FluencyScorer::FluencyScorer(const lm::NgramModel& model, double oov_log10_prob)
    : model_(model),
      oov_log_prob_(oov_log10_prob * std::numbers::ln10),
      history_(static_cast<std::size_t>(std::max(1, model.order() - 1))) {}

lm::WordId FluencyScorer::id_of(const std::string& word) const {
  return model_.find(word);
}

double FluencyScorer::position_log_prob(const std::vector<lm::WordId>& ids, std::size_t p) const {
  const lm::WordId id = ids[p];
  if (id == lm::kNoWord) return oov_log_prob_;
  const std::size_t from = p > history_ ? p - history_ : 0;
  return model_.log_prob(id, std::span<const lm::WordId>(ids.data() + from, p - from));
}

ScoredWords FluencyScorer::score(const std::vector<std::string>& words) const {
  ScoredWords s;
  s.ids.reserve(words.size() + 2);
  s.ids.push_back(model_.begin_sentence());
  for (const auto& w : words) s.ids.push_back(id_of(w));
  s.ids.push_back(model_.end_sentence());
  s.log_probs.assign(s.ids.size(), 0.0);
  for (std::size_t p = 1; p < s.ids.size(); ++p) {
    s.log_probs[p] = position_log_prob(s.ids, p);
    s.log_prob += s.log_probs[p];
  }
  return s;
}

double FluencyScorer::rescore(const ScoredWords& original, std::size_t begin, std::size_t end,
                              const std::vector<std::string>& replacement) const {
  // Word i is position i + 1. Old positions [begin+1, end+1+history) and new positions
  // [begin+1, begin+1+m+history) are the ones whose own word or history differs.
  const std::size_t m = replacement.size();
  std::vector<lm::WordId> ids;
  ids.reserve(original.ids.size() + m);
  ids.insert(ids.end(), original.ids.begin(), original.ids.begin() + static_cast<long>(begin + 1));
  for (const auto& w : replacement) ids.push_back(id_of(w));
  ids.insert(ids.end(), original.ids.begin() + static_cast<long>(end + 1), original.ids.end());
  double log_prob = original.log_prob;
  const std::size_t old_stop = std::min(original.ids.size(), end + 1 + history_);
  for (std::size_t p = begin + 1; p < old_stop; ++p) log_prob -= original.log_probs[p];
  const std::size_t new_stop = std::min(ids.size(), begin + 1 + m + history_);
  for (std::size_t p = begin + 1; p < new_stop; ++p) log_prob += position_log_prob(ids, p);
  const std::size_t n = ids.size() - 1;
  return 1.0 / (1.0 + (-log_prob / static_cast<double>(n)));
}

double FluencyScorer::unigram_log_prob(const std::string& word) const {
  const lm::WordId id = id_of(word);
  if (id == lm::kNoWord) return oov_log_prob_;
  return model_.log_prob(id, {});
}

}  // namespace assay::fairness
