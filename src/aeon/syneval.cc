#include "aeon/syneval.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "aeon/sentence_splitter.h"
#include "core/error.h"

namespace assay::aeon {

SynEval::SynEval(const lm::BertModel& model, const lm::BertVocab& vocab, SynEvalOptions options)
    : model_(model), tokenizer_(vocab), options_(options) {
  if (!model.weights().has_mlm_head()) {
    throw core::UsageError("SynEval needs a masked-LM checkpoint (cls.predictions.* tensors), "
                           "such as bert-base-uncased; this one has none");
  }
  if (options_.max_length < 3 || options_.max_batch == 0) {
    throw core::UsageError("SynEval max_length must be at least 3 and max_batch positive");
  }
}

std::vector<double> SynEval::compute(const std::string& sentence) const {
  const auto ids = tokenizer_.wrap(tokenizer_.encode(sentence), options_.max_length);
  const std::size_t n = ids.size() - 2, v = model_.config().vocab_size;
  std::vector<double> probs(n);
  const std::int32_t mask = tokenizer_.vocab().mask_id();
  for (std::size_t first = 0; first < n; first += options_.max_batch) {
    const std::size_t last = std::min(n, first + options_.max_batch);
    std::vector<std::vector<std::int32_t>> copies;
    std::vector<std::pair<std::size_t, std::size_t>> positions;
    for (std::size_t p = first; p < last; ++p) {
      copies.push_back(ids);
      copies.back()[p + 1] = mask;
      positions.emplace_back(copies.size() - 1, p + 1);
    }
    const auto out = model_.encode(copies, tokenizer_.vocab().pad_id());
    const auto logits = model_.mlm_logits(out, positions);
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const float* row = logits.data() + i * v;
      const float mx = *std::max_element(row, row + v);
      double z = 0;
      for (std::size_t k = 0; k < v; ++k) z += std::exp(static_cast<double>(row[k] - mx));
      const auto original = static_cast<std::size_t>(ids[positions[i].second]);
      probs[first + i] = std::exp(static_cast<double>(row[original] - mx)) / z;
    }
  }
  return probs;
}

std::vector<double> SynEval::sentence_probabilities(const std::string& sentence) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = cache_.find(sentence); it != cache_.end()) return it->second;
  }
  std::vector<double> probs = compute(sentence);
  std::lock_guard<std::mutex> lock(mutex_);
  ++n_computed_;
  return cache_.emplace(sentence, std::move(probs)).first->second;
}

std::size_t SynEval::n_sentences_computed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return n_computed_;
}

SynEvalResult SynEval::score(std::string_view text) {
  std::vector<double> all;
  for (const auto& s : split_sentences(text)) {
    const auto p = sentence_probabilities(s);
    all.insert(all.end(), p.begin(), p.end());
  }
  SynEvalResult r;
  r.n_tokens = all.size();
  if (all.empty()) {
    r.nat = r.min_prob = r.mean_prob = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  r.min_prob = *std::min_element(all.begin(), all.end());
  double sum = 0;
  for (double p : all) sum += p;
  r.mean_prob = sum / static_cast<double>(all.size());
  r.nat = options_.phi * r.min_prob + (1 - options_.phi) * r.mean_prob;
  return r;
}

}  // namespace assay::aeon
