#include "lm/bert_config.h"

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/json_file.h"

namespace assay::lm {
namespace {

std::size_t require_size(const nlohmann::json& j, const char* key, const std::string& path,
                         std::size_t max_value) {
  const auto it = j.find(key);
  if (it == j.end()) {
    throw core::ParseError(core::SourceLocation(path), std::string("missing '") + key + "'");
  }
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() == 0 ||
      it->get<std::uint64_t>() > max_value) {
    throw core::ParseError(core::SourceLocation(path),
                           std::string("'") + key + "' must be an integer in [1, " +
                               std::to_string(max_value) + "], got " + it->dump());
  }
  return static_cast<std::size_t>(it->get<std::uint64_t>());
}

}  // namespace

const char* BertConfig::supported_types() {
  return "bert, distilbert, roberta";
}

BertConfig BertConfig::load(const std::string& path) {
  // The text rules of every reader (BOM, CRLF, UTF-8, a directory or missing file).
  const nlohmann::json j = core::read_json_file(path);
  if (!j.is_object()) throw core::ParseError(core::SourceLocation(path), "not a JSON object");
  BertConfig c;
  if (const auto mt = j.find("model_type"); mt != j.end()) {
    if (!mt->is_string()) {
      throw core::ParseError(core::SourceLocation(path),
                             "'model_type' must be a string, got " + mt->dump());
    }
    c.model_type = mt->get<std::string>();
    if (c.model_type == "bert") {
      c.architecture = Architecture::kBert;
    } else if (c.model_type == "distilbert") {
      c.architecture = Architecture::kDistilBert;
    } else if (c.model_type == "roberta") {
      c.architecture = Architecture::kRoberta;
    } else {
      throw core::ParseError(core::SourceLocation(path),
                             "model_type '" + c.model_type +
                                 "' is not supported (supported: " + supported_types() + ")");
    }
  }
  const bool distil = c.architecture == Architecture::kDistilBert;
  // Bounds keep every size product far from overflow and catch nonsense configs early.
  constexpr std::size_t kMaxDim = 1 << 16, kMaxVocab = 1 << 22, kMaxLayers = 256;
  c.vocab_size = require_size(j, "vocab_size", path, kMaxVocab);
  c.hidden_size = require_size(j, distil ? "dim" : "hidden_size", path, kMaxDim);
  c.num_hidden_layers =
      require_size(j, distil ? "n_layers" : "num_hidden_layers", path, kMaxLayers);
  c.num_attention_heads =
      require_size(j, distil ? "n_heads" : "num_attention_heads", path, kMaxDim);
  c.intermediate_size =
      require_size(j, distil ? "hidden_dim" : "intermediate_size", path, kMaxDim * 4);
  c.max_position_embeddings = require_size(j, "max_position_embeddings", path, kMaxDim);
  if (distil) {
    c.type_vocab_size = 1;  // no token-type embeddings: the runtime adds a zero row
  } else {
    c.type_vocab_size =
        j.contains("type_vocab_size") ? require_size(j, "type_vocab_size", path, kMaxDim) : 2;
  }
  if (const auto eps = j.find("layer_norm_eps"); eps != j.end() && !distil) {
    if (!eps->is_number() || eps->get<double>() <= 0 || eps->get<double>() > 1) {
      throw core::ParseError(core::SourceLocation(path),
                             "'layer_norm_eps' must be a number in (0, 1], got " + eps->dump());
    }
    c.layer_norm_eps = eps->get<double>();
  }  // DistilBERT's LayerNorms are built with eps 1e-12, whatever the config says.
  const char* act_key = distil ? "activation" : "hidden_act";
  if (const auto act = j.find(act_key); act != j.end()) {
    if (!act->is_string() || act->get<std::string>() != "gelu") {
      throw core::ParseError(
          core::SourceLocation(path),
          std::string(act_key) + " " + act->dump() + " is not supported (expected \"gelu\")");
    }
  }
  if (c.architecture == Architecture::kRoberta) {
    std::size_t pad = 1;  // RobertaConfig's default
    if (const auto p = j.find("pad_token_id"); p != j.end()) {
      if (!p->is_number_unsigned() || p->get<std::uint64_t>() >= c.vocab_size) {
        throw core::ParseError(
            core::SourceLocation(path),
            "'pad_token_id' must be a token id below vocab_size, got " + p->dump());
      }
      pad = static_cast<std::size_t>(p->get<std::uint64_t>());
    }
    c.position_offset = pad + 1;
    if (c.position_offset >= c.max_position_embeddings) {
      throw core::ParseError(
          core::SourceLocation(path),
          "max_position_embeddings " + std::to_string(c.max_position_embeddings) +
              " leaves no position after pad_token_id + 1 = " + std::to_string(c.position_offset));
    }
  }
  if (c.hidden_size % c.num_attention_heads != 0) {
    throw core::ParseError(core::SourceLocation(path),
                           "hidden_size " + std::to_string(c.hidden_size) +
                               " is not divisible by num_attention_heads " +
                               std::to_string(c.num_attention_heads));
  }
  return c;
}

}  // namespace assay::lm
