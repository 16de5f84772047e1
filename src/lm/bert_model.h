// BertModel: the BERT encoder (embeddings + LayerNorm, post-LN transformer layers with
// multi-head self-attention and an erf-GELU feed-forward block), the pooler (dense + tanh)
// and the masked-LM head (dense + GELU + LayerNorm, decoder tied to the word embeddings
// unless the checkpoint has its own, plus cls.predictions.bias). GEMMs go through OpenBLAS.
//
// Batches: sequences of different lengths are padded to the longest; padded key positions
// are excluded from the attention softmax (exactly what Hugging Face's additive mask of
// finfo.min does), so a sequence's outputs do not depend on what it is batched with.
// Token types are all 0 (single-segment inputs). Position p uses embedding row
// p + config.position_offset (RoBERTa's pad_token_id + 1), exactly the positions Hugging
// Face gives a sequence's real tokens. Thread-safe for concurrent const calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lm/bert_config.h"
#include "lm/bert_vocab.h"
#include "lm/bert_weights.h"

namespace assay::lm {

// The last layer's hidden states of a padded batch, row-major [n_seqs, seq_len, hidden].
struct EncoderOutput {
  std::size_t n_seqs = 0, seq_len = 0, hidden = 0;
  std::vector<std::size_t> lengths;
  std::vector<float> states;
  const float* row(std::size_t seq, std::size_t pos) const {
    return states.data() + (seq * seq_len + pos) * hidden;
  }
};

class BertModel {
 public:
  BertModel(BertConfig config, BertWeights weights);

  // Loads config.json, vocab.txt (with tokenizer_config.json when present) and
  // model.safetensors from a Hugging Face WordPiece model directory (BERT, DistilBERT).
  // config.json is read first, so an unsupported model_type (or RoBERTa, whose vocabulary is
  // BPE: see lm/hf_encoder.h) is named before any missing file. Throws MissingResourceError
  // for a missing file (with a conversion hint when only pytorch_model.bin / tf_model.h5 is
  // present) and ParseError for inconsistent files (vocab.txt size ≠ config vocab_size,
  // tensor shapes, ...).
  struct Loaded;
  static Loaded load_dir(const std::string& dir);
  // The steps of load_dir: DIR/config.json (MissingResourceError without the directory or
  // the file), and DIR/model.safetensors read for `config`.
  static BertConfig load_config(const std::string& dir);
  static std::unique_ptr<BertModel> load_weights(const std::string& dir, const BertConfig& config);

  const BertConfig& config() const { return config_; }
  const BertWeights& weights() const { return weights_; }

  // Runs the encoder. Every sequence must be non-empty, at most max_position_embeddings
  // long, with ids < vocab_size (UsageError otherwise). `pad_id` fills padded positions.
  EncoderOutput encode(const std::vector<std::vector<std::int32_t>>& seqs,
                       std::int32_t pad_id = 0) const;
  // Pooled output tanh(W·h[CLS] + b) per sequence, [n_seqs, hidden]. Throws UsageError when
  // the checkpoint has no pooler.
  std::vector<float> pool(const EncoderOutput& out) const;
  // MLM logits [positions.size(), vocab] for (sequence, position) pairs. Throws UsageError
  // when the checkpoint has no MLM head.
  std::vector<float> mlm_logits(
      const EncoderOutput& out,
      const std::vector<std::pair<std::size_t, std::size_t>>& positions) const;

 private:
  BertConfig config_;
  BertWeights weights_;
};

struct BertModel::Loaded {
  BertVocab vocab;
  std::unique_ptr<BertModel> model;
};

// Sets the number of OpenBLAS threads (process-wide).
void set_blas_threads(int n_threads);

}  // namespace assay::lm
