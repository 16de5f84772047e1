#include "lm/bert_weights.h"

#include <initializer_list>

#include "core/error.h"

namespace assay::lm {
namespace {

std::string shape_string(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);  // appended apart: GCC 12 -O3 -Werror=restrict
  }
  return s + "]";
}

class TensorLoader {
 public:
  TensorLoader(const SafetensorsFile& file, std::string prefix)
      : file_(file), prefix_(std::move(prefix)) {}

  const TensorInfo* find(const std::string& name) const { return file_.find(prefix_ + name); }

  // Loads prefix+name with the expected shape; throws when absent.
  std::vector<float> get(const std::string& name, std::vector<std::uint64_t> shape) const {
    const std::string full = prefix_ + name;
    const TensorInfo* info = file_.find(full);
    if (!info) {
      throw core::ParseError(core::SourceLocation(file_.path()),
                             "missing tensor '" + full + "'" + naming_hint());
    }
    return load(*info, shape);
  }

  // The same for a LayerNorm parameter stored either as weight/bias or legacy gamma/beta.
  std::vector<float> get_ln(const std::string& base, bool weight, std::uint64_t h) const {
    const std::string modern = base + (weight ? ".weight" : ".bias");
    const std::string legacy = base + (weight ? ".gamma" : ".beta");
    if (find(modern)) return get(modern, {h});
    if (find(legacy)) return get(legacy, {h});
    throw core::ParseError(core::SourceLocation(file_.path()),
                           "missing tensor '" + prefix_ + modern + "' (or legacy '" + prefix_ +
                               legacy + "')" + naming_hint());
  }

  std::vector<float> load(const TensorInfo& info, const std::vector<std::uint64_t>& shape) const {
    if (info.shape != shape) {
      throw core::ParseError(core::SourceLocation(file_.path()),
                             "tensor '" + info.name + "' has shape " + shape_string(info.shape) +
                                 ", expected " + shape_string(shape) + " (from config.json)");
    }
    return file_.to_f32(info);
  }

 private:
  std::string naming_hint() const {
    return prefix_.empty() ? " (bare encoder naming, no prefix)"
                           : " (task-model naming, prefix '" + prefix_ + "')";
  }

  const SafetensorsFile& file_;
  std::string prefix_;
};

void append(std::vector<float>& dst, const std::vector<float>& src) {
  dst.insert(dst.end(), src.begin(), src.end());
}

}  // namespace

namespace {

// The prefix of the encoder's tensors: the architecture's ("bert.", "distilbert.",
// "roberta.", as the *For* task models store them) or none (the bare encoder models).
std::string find_prefix(const SafetensorsFile& file, const std::string& arch_prefix,
                        const std::string& model_type) {
  const std::string kWord = "embeddings.word_embeddings.weight";
  if (file.contains(arch_prefix + kWord)) return arch_prefix;
  if (file.contains(kWord)) return "";
  throw core::ParseError(core::SourceLocation(file.path()),
                         "no word embeddings: neither '" + arch_prefix + kWord + "' nor '" + kWord +
                             "' is in the file (not a " + model_type +
                             " checkpoint, as config.json's model_type says?)");
}

// DistilBERT: the same post-LN block as BERT under other names, no token types.
void load_distilbert(const TensorLoader& t, const BertConfig& c, BertWeights& w) {
  const std::uint64_t h = c.hidden_size, in = c.intermediate_size;
  w.word_embeddings = t.get("embeddings.word_embeddings.weight", {c.vocab_size, h});
  w.position_embeddings =
      t.get("embeddings.position_embeddings.weight", {c.max_position_embeddings, h});
  w.token_type_embeddings.assign(h, 0.0f);  // one all-zero row: nothing added
  w.embed_ln_g = t.get("embeddings.LayerNorm.weight", {h});
  w.embed_ln_b = t.get("embeddings.LayerNorm.bias", {h});
  for (std::size_t l = 0; l < c.num_hidden_layers; ++l) {
    const std::string p = "transformer.layer." + std::to_string(l) + ".";
    BertLayerWeights L;
    for (const char* part : {"q_lin", "k_lin", "v_lin"}) {
      append(L.qkv_w, t.get(p + "attention." + part + ".weight", {h, h}));
      append(L.qkv_b, t.get(p + "attention." + part + ".bias", {h}));
    }
    L.attn_out_w = t.get(p + "attention.out_lin.weight", {h, h});
    L.attn_out_b = t.get(p + "attention.out_lin.bias", {h});
    L.attn_ln_g = t.get(p + "sa_layer_norm.weight", {h});
    L.attn_ln_b = t.get(p + "sa_layer_norm.bias", {h});
    L.ffn_in_w = t.get(p + "ffn.lin1.weight", {in, h});
    L.ffn_in_b = t.get(p + "ffn.lin1.bias", {in});
    L.ffn_out_w = t.get(p + "ffn.lin2.weight", {h, in});
    L.ffn_out_b = t.get(p + "ffn.lin2.bias", {h});
    L.out_ln_g = t.get(p + "output_layer_norm.weight", {h});
    L.out_ln_b = t.get(p + "output_layer_norm.bias", {h});
    w.layers.push_back(std::move(L));
  }
}

// BERT and RoBERTa share every encoder tensor name.
void load_bert(const TensorLoader& t, const BertConfig& c, BertWeights& w) {
  const std::uint64_t h = c.hidden_size, v = c.vocab_size, in = c.intermediate_size;
  w.word_embeddings = t.get("embeddings.word_embeddings.weight", {v, h});
  w.position_embeddings =
      t.get("embeddings.position_embeddings.weight", {c.max_position_embeddings, h});
  w.token_type_embeddings =
      t.get("embeddings.token_type_embeddings.weight", {c.type_vocab_size, h});
  w.embed_ln_g = t.get_ln("embeddings.LayerNorm", true, h);
  w.embed_ln_b = t.get_ln("embeddings.LayerNorm", false, h);
  for (std::size_t l = 0; l < c.num_hidden_layers; ++l) {
    const std::string p = "encoder.layer." + std::to_string(l) + ".";
    BertLayerWeights L;
    for (const char* part : {"query", "key", "value"}) {
      append(L.qkv_w, t.get(p + "attention.self." + part + ".weight", {h, h}));
      append(L.qkv_b, t.get(p + "attention.self." + part + ".bias", {h}));
    }
    L.attn_out_w = t.get(p + "attention.output.dense.weight", {h, h});
    L.attn_out_b = t.get(p + "attention.output.dense.bias", {h});
    L.attn_ln_g = t.get_ln(p + "attention.output.LayerNorm", true, h);
    L.attn_ln_b = t.get_ln(p + "attention.output.LayerNorm", false, h);
    L.ffn_in_w = t.get(p + "intermediate.dense.weight", {in, h});
    L.ffn_in_b = t.get(p + "intermediate.dense.bias", {in});
    L.ffn_out_w = t.get(p + "output.dense.weight", {h, in});
    L.ffn_out_b = t.get(p + "output.dense.bias", {h});
    L.out_ln_g = t.get_ln(p + "output.LayerNorm", true, h);
    L.out_ln_b = t.get_ln(p + "output.LayerNorm", false, h);
    w.layers.push_back(std::move(L));
  }
  if (t.find("pooler.dense.weight")) {
    w.pooler_w = t.get("pooler.dense.weight", {h, h});
    w.pooler_b = t.get("pooler.dense.bias", {h});
  }
}

}  // namespace

BertWeights BertWeights::load(const SafetensorsFile& file, const BertConfig& c) {
  BertWeights w;
  switch (c.architecture) {
    case Architecture::kDistilBert:
      w.prefix = find_prefix(file, "distilbert.", c.model_type);
      load_distilbert(TensorLoader(file, w.prefix), c, w);
      return w;  // DistilBERT's MLM head (vocab_transform, vocab_projector) is not read
    case Architecture::kRoberta:
      w.prefix = find_prefix(file, "roberta.", c.model_type);
      load_bert(TensorLoader(file, w.prefix), c, w);
      return w;  // RoBERTa's MLM head (lm_head.*) is not read
    case Architecture::kBert:
      break;
  }
  w.prefix = find_prefix(file, "bert.", c.model_type);
  load_bert(TensorLoader(file, w.prefix), c, w);
  const std::uint64_t h = c.hidden_size, v = c.vocab_size;
  // The MLM head is never prefixed with "bert.".
  const TensorLoader head(file, "");
  if (head.find("cls.predictions.transform.dense.weight")) {
    w.mlm_transform_w = head.get("cls.predictions.transform.dense.weight", {h, h});
    w.mlm_transform_b = head.get("cls.predictions.transform.dense.bias", {h});
    w.mlm_ln_g = head.get_ln("cls.predictions.transform.LayerNorm", true, h);
    w.mlm_ln_b = head.get_ln("cls.predictions.transform.LayerNorm", false, h);
    if (head.find("cls.predictions.decoder.weight")) {
      w.mlm_decoder_w = head.get("cls.predictions.decoder.weight", {v, h});
    }
    w.mlm_bias = head.find("cls.predictions.bias") ? head.get("cls.predictions.bias", {v})
                                                   : head.get("cls.predictions.decoder.bias", {v});
  }
  return w;
}

}  // namespace assay::lm
