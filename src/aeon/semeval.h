// SemEval (AEON Algorithm 1): semantic consistency Sim(x, x̂) ∈ [0, 1] of a test case from a
// BERT-family embedding model (default: sup-SimCSE), per ../shared/spec/aeon.md.
//
// Reference-code variant (default): split both texts into sentences, drop identical sentence
// pairs (pairs are taken in order; when the counts differ the whole texts form one pair),
// WordPiece-tokenise the rest, align each pair by Levenshtein distance, open a patch
// [max(i−2,0), i+2) at every edit (overlaps merge), embed every patch as its own
// "[CLS] patch [SEP]" sequence, and combine
//     Sim = λ1·min(patch cos) + λ2·mean(patch cos) + (1−λ1−λ2)·cos(whole texts).
// Paper variant: align the whole texts' token sequences and embed a patch as the mean of the
// whole text's final hidden states over the patch's tokens (one encoder pass per text).
// Embeddings are the pooler output when the checkpoint has a pooler (supervised SimCSE), else
// the [CLS] hidden state (unsupervised models); EmbeddingPooling overrides. Identical texts
// score exactly 1; texts with no patch (e.g. differing only in case) score cos(whole).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lm/bert_model.h"
#include "lm/bert_vocab.h"
#include "lm/wordpiece_tokenizer.h"

namespace assay::aeon {

enum class SemEvalVariant { kReferenceCode, kPaper };
enum class EmbeddingPooling { kAuto, kPooler, kCls };

struct SemEvalOptions {
  SemEvalVariant variant = SemEvalVariant::kReferenceCode;
  EmbeddingPooling pooling = EmbeddingPooling::kAuto;
  double lambda1 = 0.1;
  double lambda2 = 0.2;
  std::size_t patch_radius = 2;
  std::size_t max_length = 512;  // tokens per encoder sequence, [CLS]/[SEP] included
};

struct SemEvalResult {
  double sim = 1.0;
  double cos_whole = 1.0;
  double min_patch_cos = 1.0;
  double mean_patch_cos = 1.0;
  std::size_t n_patches = 0;
};

class SemEval {
 public:
  // `model` and `vocab` must outlive this object. Throws UsageError when kPooler is asked of
  // a checkpoint without a pooler.
  SemEval(const lm::BertModel& model, const lm::BertVocab& vocab, SemEvalOptions options = {});

  SemEvalResult score(std::string_view original, std::string_view generated) const;

 private:
  // Embeddings [seqs.size(), hidden] of "[CLS] ids [SEP]" sequences, one encoder batch.
  std::vector<std::vector<float>> embed(const std::vector<std::vector<std::int32_t>>& seqs) const;
  std::vector<float> sentence_vector(const lm::EncoderOutput& out, std::size_t seq,
                                     const std::vector<float>& pooled) const;
  SemEvalResult combine(double cos_whole, const std::vector<double>& patch_cos) const;

  const lm::BertModel& model_;
  lm::WordpieceTokenizer tokenizer_;
  SemEvalOptions options_;
  bool use_pooler_ = true;
};

double cosine(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace assay::aeon
