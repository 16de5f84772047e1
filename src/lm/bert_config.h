// BertConfig: the fields of a Hugging Face BERT config.json that the runtime needs.
#pragma once

#include <cstddef>
#include <string>

namespace assay::lm {

struct BertConfig {
  std::size_t vocab_size = 30522;
  std::size_t hidden_size = 768;
  std::size_t num_hidden_layers = 12;
  std::size_t num_attention_heads = 12;
  std::size_t intermediate_size = 3072;
  std::size_t max_position_embeddings = 512;
  std::size_t type_vocab_size = 2;
  double layer_norm_eps = 1e-12;
  std::string hidden_act = "gelu";

  std::size_t head_dim() const { return hidden_size / num_attention_heads; }

  // Reads config.json. Missing sizes are a ParseError (they decide every tensor shape), as is
  // an activation other than "gelu" (erf GELU, the only one BERT checkpoints use), a
  // hidden size not divisible by the head count, or a model_type that is not BERT-like.
  static BertConfig load(const std::string& path);
};

}  // namespace assay::lm
