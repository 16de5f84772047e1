// HfEncoder: a Hugging Face encoder folder loaded whole — config.json (model_type first:
// bert, distilbert or roberta, any other named before any missing-file complaint), its
// tokenizer and model.safetensors.
//
// Tokenizers: BERT and DistilBERT read vocab.txt (WordPiece); RoBERTa reads tokenizer.json
// when present, otherwise vocab.json + merges.txt (byte-level BPE). tokenizer_config.json,
// when present, sets lower-casing/accent stripping (do_lower_case, strip_accents), the
// prefix space (add_prefix_space) and the special tokens (cls/sep/pad/unk/mask_token).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lm/bert_model.h"
#include "lm/bpe_tokenizer.h"
#include "lm/wordpiece_tokenizer.h"

namespace assay::lm {

class HfEncoder {
 public:
  // Throws MissingResourceError for a missing directory or file (naming the files the
  // model type needs) and ParseError for an unsupported model_type or inconsistent files
  // (a token id ≥ config vocab_size, tensor shapes, ...).
  static HfEncoder load_dir(const std::string& dir);

  const BertModel& model() const { return *model_; }
  const BertConfig& config() const { return model_->config(); }
  // The ids of one input: [CLS] text [SEP] (<s> text </s>), cut to the positions the model has.
  std::vector<std::int32_t> encode_input(std::string_view text) const;
  std::int32_t pad_id() const;
  // The files that decide the answers (config, tokenizer files, weights), for identities.
  const std::vector<std::string>& files() const { return files_; }

 private:
  std::unique_ptr<BertModel> model_;
  std::unique_ptr<BertVocab> vocab_;  // WordPiece models
  std::unique_ptr<WordpieceTokenizer> wordpiece_;
  std::unique_ptr<BpeTokenizer> bpe_;  // RoBERTa
  std::vector<std::string> files_;
};

}  // namespace assay::lm
