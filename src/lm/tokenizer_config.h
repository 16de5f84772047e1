// TokenizerConfig: the settings of a Hugging Face tokenizer_config.json that change the ids a
// text gets — lower-casing and accent stripping (WordPiece), a prefix space (byte-level BPE)
// and the special tokens wrapped around every input.
#pragma once

#include <optional>
#include <string>

namespace assay::lm {

struct SpecialTokens {
  std::string pad, unk, cls, sep, mask;

  static SpecialTokens bert() { return {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}; }
  static SpecialTokens roberta() { return {"<pad>", "<unk>", "<s>", "</s>", "<mask>"}; }
};

struct TokenizerConfig {
  bool lower_case = true;             // do_lower_case (BertTokenizer's default: true)
  std::optional<bool> strip_accents;  // unset: strip exactly when lower-casing
  bool add_prefix_space = false;      // byte-level BPE: a space before a text that lacks one
  SpecialTokens specials = SpecialTokens::bert();

  // Reads `path` when it exists and keeps `defaults` for every key it lacks (or sets to
  // null); without the file, returns `defaults`. A special token is a string or an
  // AddedToken object {"content": "..."}. A key of the wrong JSON type is a ParseError
  // naming the file and the key.
  static TokenizerConfig load(const std::string& path, TokenizerConfig defaults);
};

}  // namespace assay::lm
