// BertConfig: the fields of a Hugging Face encoder's config.json that the runtime needs, for
// the three post-LayerNorm encoders it runs: BERT, DistilBERT (its own key names: dim,
// n_layers, n_heads, hidden_dim, activation; no token types) and RoBERTa (BERT's keys;
// positions counted from pad_token_id + 1).
#pragma once

#include <cstddef>
#include <string>

namespace assay::lm {

enum class Architecture { kBert, kDistilBert, kRoberta };

struct BertConfig {
  Architecture architecture = Architecture::kBert;
  std::string model_type = "bert";  // config.json's, as written
  std::size_t vocab_size = 30522;
  std::size_t hidden_size = 768;
  std::size_t num_hidden_layers = 12;
  std::size_t num_attention_heads = 12;
  std::size_t intermediate_size = 3072;
  std::size_t max_position_embeddings = 512;
  std::size_t type_vocab_size = 2;
  double layer_norm_eps = 1e-12;
  std::string hidden_act = "gelu";
  // Position embedding row of the first token: 0, or RoBERTa's pad_token_id + 1.
  std::size_t position_offset = 0;

  // The longest input (special tokens included) the position embeddings cover.
  std::size_t max_tokens() const { return max_position_embeddings - position_offset; }

  std::size_t head_dim() const { return hidden_size / num_attention_heads; }

  // The model_type values load() accepts, for messages: "bert, distilbert, roberta".
  static const char* supported_types();

  // Reads config.json. model_type is read first: one other than bert, distilbert or roberta
  // is a ParseError naming it (a config without one is BERT's). Missing sizes are a
  // ParseError (they decide every tensor shape), as is an activation other than "gelu" (erf
  // GELU, the one these checkpoints use), a hidden size not divisible by the head count, or
  // a RoBERTa whose max_position_embeddings leaves no room after pad_token_id + 1.
  static BertConfig load(const std::string& path);
};

}  // namespace assay::lm
