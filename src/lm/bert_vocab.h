// BertVocab: a WordPiece vocabulary read from vocab.txt (one token per line, id = line − 1),
// with the tokenizer_config.json settings that go with it (special tokens, casing).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lm/tokenizer_config.h"

namespace assay::lm {

class BertVocab {
 public:
  // Reads vocab.txt through core::LineReader. An empty file, an empty line (a token must not
  // be empty) or a missing special token (`config`'s, by default [PAD] [UNK] [CLS] [SEP]
  // [MASK]) is a ParseError with the path (and line). As in Hugging Face's load_vocab, a
  // duplicated token maps to its last id.
  static BertVocab load(const std::string& path, const TokenizerConfig& config = {});
  // For tests and generated models: tokens in id order (same checks, "<memory>" as the path).
  static BertVocab from_tokens(std::vector<std::string> tokens,
                               const std::string& path = "<memory>",
                               const TokenizerConfig& config = {});

  std::size_t size() const { return tokens_.size(); }
  std::optional<std::int32_t> find(std::string_view token) const;
  const std::string& token(std::int32_t id) const {
    return tokens_.at(static_cast<std::size_t>(id));
  }
  const std::string& path() const { return path_; }
  // The tokenizer settings read with the vocabulary (special tokens, casing).
  const TokenizerConfig& config() const { return config_; }

  std::int32_t pad_id() const { return pad_; }
  std::int32_t unk_id() const { return unk_; }
  std::int32_t cls_id() const { return cls_; }
  std::int32_t sep_id() const { return sep_; }
  std::int32_t mask_id() const { return mask_; }

 private:
  void index();

  std::string path_;
  TokenizerConfig config_;
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, std::int32_t> ids_;
  std::int32_t pad_ = 0, unk_ = 0, cls_ = 0, sep_ = 0, mask_ = 0;
};

}  // namespace assay::lm
