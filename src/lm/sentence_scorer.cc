#include "lm/sentence_scorer.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace assay::lm {
namespace {

template <class Word>
SentenceScore score_words(const NgramModel& model, std::span<const Word> words,
                          const ScoreOptions& options) {
  SentenceScore result;
  result.tokens.reserve(words.size() + 1);
  std::vector<WordId> context;
  context.reserve(words.size() + 2);
  if (options.sentence_boundaries) context.push_back(model.begin_sentence());
  auto score_token = [&](WordId id) {
    TokenScore t;
    t.id = id;
    t.log_prob = model.log_prob(id, context);
    t.scored = true;
    result.log_prob += t.log_prob;
    ++result.n_tokens;
    context.push_back(id);
    return t;
  };
  for (const auto& w : words) {
    const WordId id = model.find(w);
    if (id != kNoWord) {
      result.tokens.push_back(score_token(id));
      continue;
    }
    ++result.n_oov;
    if (options.oov == OovPolicy::kSkip) {
      result.tokens.push_back(TokenScore{kNoWord, 0, true, false});
      context.push_back(kNoWord);  // the history restarts after an OOV word
    } else if (model.unknown() != kNoWord) {
      TokenScore t = score_token(model.unknown());
      t.id = kNoWord;
      t.oov = true;
      result.tokens.push_back(t);
    } else {
      TokenScore t{kNoWord, options.oov_log10_prob * std::numbers::ln10, true, true};
      result.log_prob += t.log_prob;
      ++result.n_tokens;
      context.push_back(kNoWord);
      result.tokens.push_back(t);
    }
  }
  if (options.sentence_boundaries) result.tokens.push_back(score_token(model.end_sentence()));
  return result;
}

}  // namespace

double SentenceScore::cross_entropy() const {
  if (n_tokens == 0) return std::numeric_limits<double>::quiet_NaN();
  return -log_prob / static_cast<double>(n_tokens);
}

double SentenceScore::fluency() const { return 1.0 / (1.0 + cross_entropy()); }

SentenceScore score_sentence(const NgramModel& model, std::span<const std::string> words,
                             const ScoreOptions& options) {
  return score_words(model, words, options);
}

SentenceScore score_sentence(const NgramModel& model, std::span<const std::string_view> words,
                             const ScoreOptions& options) {
  return score_words(model, words, options);
}

std::vector<std::string> split_words(std::string_view sentence) {
  std::vector<std::string> out;
  std::size_t i = 0;
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  };
  while (i < sentence.size()) {
    while (i < sentence.size() && space(sentence[i])) ++i;
    const std::size_t start = i;
    while (i < sentence.size() && !space(sentence[i])) ++i;
    if (i > start) out.emplace_back(sentence.substr(start, i - start));
  }
  return out;
}

}  // namespace assay::lm
