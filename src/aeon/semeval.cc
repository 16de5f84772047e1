#include "aeon/semeval.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aeon/levenshtein_alignment.h"
#include "aeon/sentence_splitter.h"
#include "core/error.h"

namespace assay::aeon {

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    ab += static_cast<double>(a[i]) * b[i];
    aa += static_cast<double>(a[i]) * a[i];
    bb += static_cast<double>(b[i]) * b[i];
  }
  if (aa == 0 || bb == 0) return 0.0;
  return ab / std::sqrt(aa * bb);
}

SemEval::SemEval(const lm::BertModel& model, const lm::BertVocab& vocab, SemEvalOptions options)
    : model_(model), tokenizer_(vocab), options_(options) {
  if (options_.max_length < 3) throw core::UsageError("SemEval max_length must be at least 3");
  switch (options_.pooling) {
    case EmbeddingPooling::kAuto: use_pooler_ = model.weights().has_pooler(); break;
    case EmbeddingPooling::kCls: use_pooler_ = false; break;
    case EmbeddingPooling::kPooler:
      if (!model.weights().has_pooler()) {
        throw core::UsageError("SemEval pooling 'pooler' asked of a checkpoint without a pooler");
      }
      use_pooler_ = true;
      break;
  }
}

std::vector<float> SemEval::sentence_vector(const lm::EncoderOutput& out, std::size_t seq,
                                            const std::vector<float>& pooled) const {
  const std::size_t h = out.hidden;
  if (use_pooler_) return {pooled.begin() + static_cast<std::ptrdiff_t>(seq * h),
                           pooled.begin() + static_cast<std::ptrdiff_t>((seq + 1) * h)};
  return {out.row(seq, 0), out.row(seq, 0) + h};
}

std::vector<std::vector<float>> SemEval::embed(const std::vector<std::vector<std::int32_t>>& seqs) const {
  std::vector<std::vector<std::int32_t>> wrapped;
  for (const auto& s : seqs) wrapped.push_back(tokenizer_.wrap(s, options_.max_length));
  const lm::EncoderOutput out = model_.encode(wrapped, tokenizer_.vocab().pad_id());
  const std::vector<float> pooled = use_pooler_ ? model_.pool(out) : std::vector<float>{};
  std::vector<std::vector<float>> vecs;
  for (std::size_t i = 0; i < seqs.size(); ++i) vecs.push_back(sentence_vector(out, i, pooled));
  return vecs;
}

SemEvalResult SemEval::combine(double cos_whole, const std::vector<double>& patch_cos) const {
  SemEvalResult r;
  r.cos_whole = cos_whole;
  r.n_patches = patch_cos.size();
  if (patch_cos.empty()) {
    r.sim = r.min_patch_cos = r.mean_patch_cos = cos_whole;
    return r;
  }
  r.min_patch_cos = *std::min_element(patch_cos.begin(), patch_cos.end());
  r.mean_patch_cos = std::accumulate(patch_cos.begin(), patch_cos.end(), 0.0) /
                     static_cast<double>(patch_cos.size());
  r.sim = options_.lambda1 * r.min_patch_cos + options_.lambda2 * r.mean_patch_cos +
          (1 - options_.lambda1 - options_.lambda2) * cos_whole;
  return r;
}

SemEvalResult SemEval::score(std::string_view original, std::string_view generated) const {
  if (original == generated) return SemEvalResult{};
  const auto a_ids = tokenizer_.encode(original), b_ids = tokenizer_.encode(generated);
  std::vector<double> patch_cos;
  double cos_whole = 1.0;

  if (options_.variant == SemEvalVariant::kPaper) {
    const std::vector<std::vector<std::int32_t>> wholes = {tokenizer_.wrap(a_ids, options_.max_length),
                                                           tokenizer_.wrap(b_ids, options_.max_length)};
    const lm::EncoderOutput out = model_.encode(wholes, tokenizer_.vocab().pad_id());
    const std::vector<float> pooled = use_pooler_ ? model_.pool(out) : std::vector<float>{};
    cos_whole = cosine(sentence_vector(out, 0, pooled), sentence_vector(out, 1, pooled));
    // Token i of the text is row i + 1 (after [CLS]); truncated tokens have no row.
    const std::size_t a_len = wholes[0].size() - 2, b_len = wholes[1].size() - 2;
    const std::span<const std::int32_t> a(a_ids.data(), a_len), b(b_ids.data(), b_len);
    auto mean_rows = [&](std::size_t seq, std::size_t begin, std::size_t end) {
      std::vector<float> v(out.hidden, 0.0f);
      for (std::size_t t = begin; t < end; ++t) {
        const float* r = out.row(seq, t + 1);
        for (std::size_t k = 0; k < out.hidden; ++k) v[k] += r[k];
      }
      return v;  // cosine is scale-free, so the sum serves as the mean
    };
    for (const Patch& p : edit_patches(levenshtein_edits(a, b), a_len, b_len, options_.patch_radius)) {
      patch_cos.push_back(cosine(mean_rows(0, p.a_begin, p.a_end), mean_rows(1, p.b_begin, p.b_end)));
    }
    return combine(cos_whole, patch_cos);
  }

  // Reference-code variant: per sentence pair, patches embedded as their own sequences.
  auto sa = split_sentences(original), sb = split_sentences(generated);
  if (sa.size() != sb.size()) {
    sa = {std::string(original)};
    sb = {std::string(generated)};
  }
  std::vector<std::vector<std::int32_t>> seqs = {a_ids, b_ids};
  for (std::size_t s = 0; s < sa.size(); ++s) {
    if (sa[s] == sb[s]) continue;
    const auto x = tokenizer_.encode(sa[s]), y = tokenizer_.encode(sb[s]);
    for (const Patch& p : edit_patches(levenshtein_edits(x, y), x.size(), y.size(), options_.patch_radius)) {
      seqs.emplace_back(x.begin() + static_cast<std::ptrdiff_t>(p.a_begin),
                        x.begin() + static_cast<std::ptrdiff_t>(p.a_end));
      seqs.emplace_back(y.begin() + static_cast<std::ptrdiff_t>(p.b_begin),
                        y.begin() + static_cast<std::ptrdiff_t>(p.b_end));
    }
  }
  // Whole texts and patches in separate batches so short patches are not padded to 512.
  const auto wholes = embed({seqs[0], seqs[1]});
  cos_whole = cosine(wholes[0], wholes[1]);
  if (seqs.size() > 2) {
    const auto patches = embed({seqs.begin() + 2, seqs.end()});
    for (std::size_t i = 0; i + 1 < patches.size(); i += 2) patch_cos.push_back(cosine(patches[i], patches[i + 1]));
  }
  return combine(cos_whole, patch_cos);
}

}  // namespace assay::aeon
