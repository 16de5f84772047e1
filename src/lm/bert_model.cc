#include "lm/bert_model.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "lm/safetensors_file.h"
#include "lm/vector_math.h"

namespace assay::lm {
namespace {

// C[m,n] (ldc) = alpha·A[m,k]·B[n,k]ᵀ + beta·C: HF Linear weights are [out, in].
void gemm_nt(std::size_t m, std::size_t n, std::size_t k, const float* a, std::size_t lda,
             const float* b, std::size_t ldb, float* c, std::size_t ldc, float alpha = 1.0f,
             float beta = 1.0f) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), alpha, a, static_cast<blasint>(lda),
              b, static_cast<blasint>(ldb), beta, c, static_cast<blasint>(ldc));
}

// C[m,n] = A[m,k]·B[k,n].
void gemm_nn(std::size_t m, std::size_t n, std::size_t k, const float* a, std::size_t lda,
             const float* b, std::size_t ldb, float* c, std::size_t ldc) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, a, static_cast<blasint>(lda),
              b, static_cast<blasint>(ldb), 0.0f, c, static_cast<blasint>(ldc));
}

// y = x·Wᵀ + b for `rows` rows: fills y with the bias, then accumulates the GEMM.
void linear(std::size_t rows, std::size_t in, std::size_t out, const float* x,
            const std::vector<float>& w, const std::vector<float>& b, float* y) {
  for (std::size_t r = 0; r < rows; ++r) std::memcpy(y + r * out, b.data(), out * sizeof(float));
  gemm_nt(rows, out, in, x, in, w.data(), in, y, out);
}

}  // namespace

void set_blas_threads(int n_threads) {
  openblas_set_num_threads(std::max(1, n_threads));
}

BertModel::BertModel(BertConfig config, BertWeights weights)
    : config_(std::move(config)), weights_(std::move(weights)) {}

BertConfig BertModel::load_config(const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path root(dir);
  if (!fs::is_directory(root)) {
    throw core::MissingResourceError(core::SourceLocation(dir),
                                     "not a directory (expected a Hugging Face model directory "
                                     "with config.json, its tokenizer files and "
                                     "model.safetensors)");
  }
  if (!fs::exists(root / "config.json")) {
    throw core::MissingResourceError(core::SourceLocation((root / "config.json").string()),
                                     "missing config.json in the model directory");
  }
  return BertConfig::load((root / "config.json").string());
}

std::unique_ptr<BertModel> BertModel::load_weights(const std::string& dir,
                                                   const BertConfig& config) {
  namespace fs = std::filesystem;
  const fs::path root(dir);
  const fs::path st = root / "model.safetensors";
  if (!fs::exists(st)) {
    std::string msg = "missing model.safetensors";
    for (const char* other : {"pytorch_model.bin", "tf_model.h5", "flax_model.msgpack"}) {
      if (fs::exists(root / other)) {
        msg += std::string("; only ") + other +
               " is present, which assay does not read (it is not memory-safe to parse). "
               "Convert it once with Python: from transformers import AutoModel; "
               "AutoModel.from_pretrained(DIR).save_pretrained(DIR, safe_serialization=True) "
               "(use BertForPreTraining/BertForMaskedLM to keep the MLM head)";
        break;
      }
    }
    throw core::MissingResourceError(core::SourceLocation(st.string()), msg);
  }
  const SafetensorsFile file(st.string());
  return std::make_unique<BertModel>(config, BertWeights::load(file, config));
}

BertModel::Loaded BertModel::load_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path root(dir);
  const BertConfig config = load_config(dir);  // an unsupported model_type is named first
  if (config.architecture == Architecture::kRoberta) {
    throw core::ParseError(core::SourceLocation((root / "config.json").string()),
                           "model_type 'roberta' has a byte-level BPE vocabulary; this needs a "
                           "WordPiece model (bert, distilbert) with vocab.txt");
  }
  const fs::path vocab = root / "vocab.txt";
  if (!fs::exists(vocab)) {
    throw core::MissingResourceError(core::SourceLocation(vocab.string()),
                                     "missing vocab.txt in the model directory");
  }
  Loaded loaded;
  loaded.vocab = BertVocab::load(
      vocab.string(), TokenizerConfig::load((root / "tokenizer_config.json").string(), {}));
  if (loaded.vocab.size() != config.vocab_size) {
    throw core::ParseError(core::SourceLocation(vocab.string()),
                           "vocab.txt has " + std::to_string(loaded.vocab.size()) +
                               " tokens but config.json says vocab_size " +
                               std::to_string(config.vocab_size));
  }
  loaded.model = load_weights(dir, config);
  return loaded;
}

EncoderOutput BertModel::encode(const std::vector<std::vector<std::int32_t>>& seqs,
                                std::int32_t pad_id) const {
  const std::size_t h = config_.hidden_size, n_heads = config_.num_attention_heads;
  const std::size_t d = config_.head_dim(), inter = config_.intermediate_size;
  EncoderOutput out;
  out.n_seqs = seqs.size();
  out.hidden = h;
  for (const auto& s : seqs) {
    if (s.empty()) throw core::UsageError("BERT input sequence is empty");
    if (s.size() > config_.max_tokens()) {
      throw core::UsageError("BERT input of " + std::to_string(s.size()) + " tokens exceeds the " +
                             std::to_string(config_.max_tokens()) +
                             " positions of max_position_embeddings " +
                             std::to_string(config_.max_position_embeddings));
    }
    for (std::int32_t id : s) {
      if (id < 0 || static_cast<std::size_t>(id) >= config_.vocab_size) {
        throw core::UsageError("token id " + std::to_string(id) + " outside the vocabulary of " +
                               std::to_string(config_.vocab_size));
      }
    }
    out.lengths.push_back(s.size());
    out.seq_len = std::max(out.seq_len, s.size());
  }
  if (pad_id < 0 || static_cast<std::size_t>(pad_id) >= config_.vocab_size) {
    throw core::UsageError("pad id outside the vocabulary");
  }
  const std::size_t t_len = out.seq_len, rows = out.n_seqs * t_len;
  std::vector<float>& x = out.states;
  x.assign(rows * h, 0.0f);

  const BertWeights& w = weights_;
  for (std::size_t s = 0; s < out.n_seqs; ++s) {
    for (std::size_t t = 0; t < t_len; ++t) {
      const std::int32_t id = t < seqs[s].size() ? seqs[s][t] : pad_id;
      const float* we = w.word_embeddings.data() + static_cast<std::size_t>(id) * h;
      const float* pe = w.position_embeddings.data() + (t + config_.position_offset) * h;
      const float* te = w.token_type_embeddings.data();
      float* dst = x.data() + (s * t_len + t) * h;
      for (std::size_t i = 0; i < h; ++i) dst[i] = we[i] + pe[i] + te[i];
    }
  }
  layer_norm_inplace(x.data(), rows, h, w.embed_ln_g.data(), w.embed_ln_b.data(),
                     config_.layer_norm_eps);

  // Scratch buffers, reused across calls on the same thread (every element is written before
  // it is read, so they need no clearing): a fresh 4-20 MB per call costs page faults that
  // showed up as ~5% of a 128-token encode.
  thread_local std::vector<float> qkv, ctx, attn, ffn, scores;
  qkv.resize(rows * 3 * h);
  ctx.resize(rows * h);
  attn.resize(rows * h);
  ffn.resize(rows * inter);
  scores.resize(t_len * t_len);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  for (const BertLayerWeights& L : w.layers) {
    linear(rows, h, 3 * h, x.data(), L.qkv_w, L.qkv_b, qkv.data());
    for (std::size_t s = 0; s < out.n_seqs; ++s) {
      const std::size_t len = out.lengths[s];
      const float* base = qkv.data() + s * t_len * 3 * h;
      for (std::size_t head = 0; head < n_heads; ++head) {
        const float* q = base + head * d;
        const float* k = base + h + head * d;
        const float* v = base + 2 * h + head * d;
        // scores[t_len, len] = q·kᵀ·scale over the sequence's real keys only.
        gemm_nt(t_len, len, d, q, 3 * h, k, 3 * h, scores.data(), len, scale, 0.0f);
        for (std::size_t t = 0; t < t_len; ++t) softmax_inplace(scores.data() + t * len, len);
        gemm_nn(t_len, d, len, scores.data(), len, v, 3 * h, ctx.data() + s * t_len * h + head * d,
                h);
      }
    }
    // attn = ctx·Woᵀ + b + x, then LayerNorm.
    std::memcpy(attn.data(), x.data(), rows * h * sizeof(float));
    for (std::size_t r = 0; r < rows; ++r) {
      float* a = attn.data() + r * h;
      for (std::size_t i = 0; i < h; ++i) a[i] += L.attn_out_b[i];
    }
    gemm_nt(rows, h, h, ctx.data(), h, L.attn_out_w.data(), h, attn.data(), h);
    layer_norm_inplace(attn.data(), rows, h, L.attn_ln_g.data(), L.attn_ln_b.data(),
                       config_.layer_norm_eps);
    linear(rows, h, inter, attn.data(), L.ffn_in_w, L.ffn_in_b, ffn.data());
    gelu_inplace(ffn.data(), ffn.size());
    // x = ffn·W2ᵀ + b2 + attn, then LayerNorm.
    for (std::size_t r = 0; r < rows; ++r) {
      float* dst = x.data() + r * h;
      const float* a = attn.data() + r * h;
      for (std::size_t i = 0; i < h; ++i) dst[i] = a[i] + L.ffn_out_b[i];
    }
    gemm_nt(rows, h, inter, ffn.data(), inter, L.ffn_out_w.data(), inter, x.data(), h);
    layer_norm_inplace(x.data(), rows, h, L.out_ln_g.data(), L.out_ln_b.data(),
                       config_.layer_norm_eps);
  }
  return out;
}

std::vector<float> BertModel::pool(const EncoderOutput& out) const {
  if (!weights_.has_pooler()) throw core::UsageError("this checkpoint has no pooler weights");
  const std::size_t h = config_.hidden_size;
  std::vector<float> cls(out.n_seqs * h), pooled(out.n_seqs * h);
  for (std::size_t s = 0; s < out.n_seqs; ++s)
    std::memcpy(cls.data() + s * h, out.row(s, 0), h * sizeof(float));
  linear(out.n_seqs, h, h, cls.data(), weights_.pooler_w, weights_.pooler_b, pooled.data());
  for (float& v : pooled) v = std::tanh(v);
  return pooled;
}

std::vector<float> BertModel::mlm_logits(
    const EncoderOutput& out,
    const std::vector<std::pair<std::size_t, std::size_t>>& positions) const {
  if (!weights_.has_mlm_head()) {
    throw core::UsageError(
        "this checkpoint has no masked-LM head (cls.predictions.*); use a "
        "BertForPreTraining/BertForMaskedLM checkpoint such as bert-base-uncased");
  }
  const std::size_t h = config_.hidden_size, v = config_.vocab_size, n = positions.size();
  std::vector<float> rows(n * h), t(n * h), logits(n * v);
  for (std::size_t i = 0; i < n; ++i) {
    const auto [s, p] = positions[i];
    if (s >= out.n_seqs || p >= out.lengths[s])
      throw core::UsageError("MLM position outside the batch");
    std::memcpy(rows.data() + i * h, out.row(s, p), h * sizeof(float));
  }
  linear(n, h, h, rows.data(), weights_.mlm_transform_w, weights_.mlm_transform_b, t.data());
  gelu_inplace(t.data(), t.size());
  layer_norm_inplace(t.data(), n, h, weights_.mlm_ln_g.data(), weights_.mlm_ln_b.data(),
                     config_.layer_norm_eps);
  linear(n, h, v, t.data(), weights_.decoder(), weights_.mlm_bias, logits.data());
  return logits;
}

}  // namespace assay::lm
