// BERT-base-shaped encoder benchmark: random weights (seeded), 2 BLAS threads by default.
// Prints one JSON line with medians (ms) of: a 128-token and a 32-token sequence, the bare
// sgemm calls of the same shapes (this machine's GEMM rate for the same FLOPs), and the
// masked-LM pass of SynEval for a 30-token sentence (30 masked copies in one batch).
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "aeon/syneval.h"
#include "core/rng.h"
#include "lm/bert_vocab.h"
#include "lm/bert_model.h"

namespace {

using assay::lm::BertConfig;
using assay::lm::BertModel;
using assay::lm::BertWeights;

std::vector<float> random_vec(assay::core::Rng& rng, std::size_t n, float scale, float offset = 0) {
  std::vector<float> v(n);
  for (auto& x : v) x = offset + scale * static_cast<float>(2 * rng.uniform() - 1);
  return v;
}

BertWeights random_weights(const BertConfig& c, std::uint64_t seed) {
  assay::core::Rng rng(seed, 0);
  const std::size_t h = c.hidden_size, in = c.intermediate_size, v = c.vocab_size;
  const float s = 0.05f;
  BertWeights w;
  w.prefix = "bert.";
  w.word_embeddings = random_vec(rng, v * h, s);
  w.position_embeddings = random_vec(rng, c.max_position_embeddings * h, s);
  w.token_type_embeddings = random_vec(rng, c.type_vocab_size * h, s);
  w.embed_ln_g = random_vec(rng, h, 0.1f, 1.0f);
  w.embed_ln_b = random_vec(rng, h, 0.1f);
  for (std::size_t l = 0; l < c.num_hidden_layers; ++l) {
    assay::lm::BertLayerWeights L;
    L.qkv_w = random_vec(rng, 3 * h * h, s);
    L.qkv_b = random_vec(rng, 3 * h, s);
    L.attn_out_w = random_vec(rng, h * h, s);
    L.attn_out_b = random_vec(rng, h, s);
    L.attn_ln_g = random_vec(rng, h, 0.1f, 1.0f);
    L.attn_ln_b = random_vec(rng, h, 0.1f);
    L.ffn_in_w = random_vec(rng, in * h, s);
    L.ffn_in_b = random_vec(rng, in, s);
    L.ffn_out_w = random_vec(rng, h * in, s);
    L.ffn_out_b = random_vec(rng, h, s);
    L.out_ln_g = random_vec(rng, h, 0.1f, 1.0f);
    L.out_ln_b = random_vec(rng, h, 0.1f);
    w.layers.push_back(std::move(L));
  }
  w.pooler_w = random_vec(rng, h * h, s);
  w.pooler_b = random_vec(rng, h, s);
  w.mlm_transform_w = random_vec(rng, h * h, s);
  w.mlm_transform_b = random_vec(rng, h, s);
  w.mlm_ln_g = random_vec(rng, h, 0.1f, 1.0f);
  w.mlm_ln_b = random_vec(rng, h, 0.1f);
  w.mlm_bias = random_vec(rng, v, s);
  return w;
}

double median_ms(int reps, const std::function<void()>& fn) {
  fn();  // warm-up
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    fn();
    const auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The encoder's GEMMs alone, same shapes and leading dimensions; returns the FLOP count.
double bare_gemms(const BertConfig& c, std::size_t t_len, std::size_t n_seqs,
                  std::vector<std::vector<float>>& buf, bool run) {
  const std::size_t h = c.hidden_size, in = c.intermediate_size, d = c.head_dim();
  const std::size_t r = t_len * n_seqs;
  auto gemm = [&](bool trans_b, std::size_t m, std::size_t n, std::size_t k, const float* a,
                  std::size_t lda, const float* b, std::size_t ldb, float* out, std::size_t ldc) {
    if (!run) return 2.0 * static_cast<double>(m * n * k);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0f, a,
                static_cast<int>(lda), b, static_cast<int>(ldb), 1.0f, out, static_cast<int>(ldc));
    return 2.0 * static_cast<double>(m * n * k);
  };
  if (buf.empty()) {
    buf = {std::vector<float>(r * h, 0.01f), std::vector<float>(3 * h * h, 0.01f),
           std::vector<float>(r * 3 * h), std::vector<float>(in * h, 0.01f),
           std::vector<float>(r * in), std::vector<float>(t_len * t_len)};
  }
  double flops = 0;
  for (std::size_t l = 0; l < c.num_hidden_layers; ++l) {
    flops += gemm(true, r, 3 * h, h, buf[0].data(), h, buf[1].data(), h, buf[2].data(), 3 * h);
    for (std::size_t s = 0; s < n_seqs; ++s) {
      for (std::size_t head = 0; head < c.num_attention_heads; ++head) {
        const float* q = buf[2].data() + s * t_len * 3 * h + head * d;
        flops += gemm(true, t_len, t_len, d, q, 3 * h, q + h, 3 * h, buf[5].data(), t_len);
        flops += gemm(false, t_len, d, t_len, buf[5].data(), t_len, q + 2 * h, 3 * h,
                      buf[0].data() + s * t_len * h + head * d, h);
      }
    }
    flops += gemm(true, r, h, h, buf[0].data(), h, buf[1].data(), h, buf[2].data(), h);
    flops += gemm(true, r, in, h, buf[0].data(), h, buf[3].data(), h, buf[4].data(), in);
    flops += gemm(true, r, h, in, buf[4].data(), in, buf[3].data(), in, buf[0].data(), h);
  }
  return flops;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2, reps = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
  }
  assay::lm::set_blas_threads(threads);
  BertConfig c;  // defaults are bert-base-uncased's
  const BertModel model(c, random_weights(c, 20220718));
  assay::core::Rng rng(7, 1);
  auto seq = [&](std::size_t n) {
    std::vector<std::int32_t> ids(n);
    for (auto& id : ids) id = static_cast<std::int32_t>(1000 + rng.below(29000));
    ids.front() = 101;
    ids.back() = 102;
    return ids;
  };
  const auto s128 = seq(128), s32 = seq(32);
  const double enc128 = median_ms(reps, [&] { model.encode({s128}); });
  const double enc32 = median_ms(reps, [&] { model.encode({s32}); });
  std::vector<std::vector<float>> b128, b32;
  const double flops128 = bare_gemms(c, 128, 1, b128, false);
  const double flops32 = bare_gemms(c, 32, 1, b32, false);
  const double gemm128 = median_ms(reps, [&] { bare_gemms(c, 128, 1, b128, true); });
  const double gemm32 = median_ms(reps, [&] { bare_gemms(c, 32, 1, b32, true); });
  // SynEval (aeon::SynEval, the real scorer) on a 30-token sentence: 30 masked copies of
  // 32 tokens in one batch. The vocabulary is synthetic ("w<i>" tokens) so the sentence
  // "w1000 w1001 ..." tokenises to exactly 30 WordPieces.
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < c.vocab_size; ++i) {
    std::string t = std::to_string(i);
    t.insert(t.begin(), 'w');
    tokens.push_back(std::move(t));
  }
  tokens[0] = "[PAD]";
  tokens[100] = "[UNK]";
  tokens[101] = "[CLS]";
  tokens[102] = "[SEP]";
  tokens[103] = "[MASK]";
  const auto vocab = assay::lm::BertVocab::from_tokens(tokens);
  std::string sentence;
  for (int i = 0; i < 30; ++i) {
    if (i > 0) sentence.push_back(' ');
    sentence.push_back('w');
    sentence.append(std::to_string(1000 + 37 * i));
  }
  double checksum = 0;
  const double syn = median_ms(std::max(3, reps / 2), [&] {
    assay::aeon::SynEval scorer(model, vocab);  // fresh: no cached sentence
    const auto r = scorer.score(sentence);
    if (r.n_tokens != 30) std::abort();
    checksum += r.nat;
  });
  // Determinism at full size: 1 and 2 BLAS threads must give the same bytes.
  assay::lm::set_blas_threads(1);
  const auto ref = model.encode({s128});
  assay::lm::set_blas_threads(threads);
  const auto again = model.encode({s128});
  const auto third = model.encode({s128});
  const bool bitwise = std::memcmp(ref.states.data(), again.states.data(),
                                   ref.states.size() * sizeof(float)) == 0;
  const bool repeat = std::memcmp(third.states.data(), again.states.data(),
                                  ref.states.size() * sizeof(float)) == 0;
  double max_diff = 0;
  for (std::size_t i = 0; i < ref.states.size(); ++i) {
    max_diff = std::max(max_diff, static_cast<double>(std::fabs(ref.states[i] - again.states[i])));
  }
  std::printf(
      "{\"impl\":\"assay\",\"threads_bitwise_equal\":%s,\"repeat_bitwise_equal\":%s,\"threads_max_abs_diff\":%.3g,\"threads\":%d,\"reps\":%d,\"encode128_ms\":%.2f,\"encode32_ms\":%.2f,"
      "\"sgemm128_ms\":%.2f,\"sgemm32_ms\":%.2f,\"sgemm128_gflops\":%.1f,\"sgemm32_gflops\":%.1f,"
      "\"syneval30_ms\":%.2f,\"checksum\":%.6g}\n",
      bitwise ? "true" : "false", repeat ? "true" : "false", max_diff, threads, reps, enc128, enc32, gemm128, gemm32, flops128 / gemm128 / 1e6,
      flops32 / gemm32 / 1e6, syn, checksum);
  return 0;
}
