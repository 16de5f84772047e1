// BertWeights: every encoder parameter as float32, looked up by Hugging Face tensor name
// (per config.json's model_type) and checked against the config's shapes.
//
// DistilBERT ("distilbert." prefix or none; transformer.layer.N.attention.{q,k,v,out}_lin,
// sa_layer_norm, ffn.lin1/lin2, output_layer_norm) fills the same fields, with an all-zero
// token-type row. RoBERTa uses BERT's names under "roberta." (or none). For BERT, two naming
// schemes are recognised automatically:
//   * BertForPreTraining / BertForMaskedLM (bert-base-uncased): "bert." prefix, LayerNorm
//     parameters either "LayerNorm.weight/bias" or the legacy "LayerNorm.gamma/beta", the MLM
//     head under "cls.predictions." (decoder weight optional: tied to the word embeddings);
//   * BertModel (sup/unsup SimCSE): no prefix, no MLM head.
// A missing required tensor, a wrong shape or a non-float dtype is a ParseError naming the
// file and the tensor. The pooler and the MLM head are optional; has_pooler()/has_mlm_head()
// say whether they were found.
#pragma once

#include <string>
#include <vector>

#include "lm/bert_config.h"
#include "lm/safetensors_file.h"

namespace assay::lm {

struct BertLayerWeights {
  std::vector<float> qkv_w, qkv_b;            // [3H, H], [3H]: query, key, value rows stacked
  std::vector<float> attn_out_w, attn_out_b;  // [H, H], [H]
  std::vector<float> attn_ln_g, attn_ln_b;    // [H]
  std::vector<float> ffn_in_w, ffn_in_b;      // [I, H], [I]
  std::vector<float> ffn_out_w, ffn_out_b;    // [H, I], [H]
  std::vector<float> out_ln_g, out_ln_b;      // [H]
};

struct BertWeights {
  std::vector<float> word_embeddings;        // [V, H]
  std::vector<float> position_embeddings;    // [P, H]
  std::vector<float> token_type_embeddings;  // [T, H]
  std::vector<float> embed_ln_g, embed_ln_b;
  std::vector<BertLayerWeights> layers;
  std::vector<float> pooler_w, pooler_b;                // [H, H], [H]; empty without a pooler
  std::vector<float> mlm_transform_w, mlm_transform_b;  // [H, H], [H]
  std::vector<float> mlm_ln_g, mlm_ln_b;
  std::vector<float> mlm_decoder_w;  // [V, H]; empty when tied to word_embeddings
  std::vector<float> mlm_bias;       // [V]; empty without an MLM head
  std::string prefix;                // "bert." or ""

  bool has_pooler() const { return !pooler_w.empty(); }
  bool has_mlm_head() const { return !mlm_bias.empty(); }
  // The decoder matrix actually used by the MLM head.
  const std::vector<float>& decoder() const {
    return mlm_decoder_w.empty() ? word_embeddings : mlm_decoder_w;
  }

  static BertWeights load(const SafetensorsFile& file, const BertConfig& config);
};

}  // namespace assay::lm
