// BpeTokenizer: GPT-2's byte-level BPE as RoBERTa uses it (Hugging Face's RobertaTokenizer and
// its tokenizers.json twin):
//   1. (add_prefix_space) a space before a text that does not start with whitespace;
//   2. pre-tokenisation by GPT-2's pattern
//        's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//      (\s is Unicode White_Space, letters and numbers by general category, as the Python
//      `regex` module matches them), so a space travels with the word after it and a run of
//      spaces leaves its last one to the next word;
//   3. each piece's UTF-8 bytes mapped to printable code points (bytes_to_unicode: the 188
//      printable Latin-1 bytes stand for themselves, the others for U+0100 onwards, the space
//      becoming "Ġ");
//   4. BPE: repeatedly merge the adjacent pair ranked lowest in merges.txt, every
//      non-overlapping occurrence left to right, until no pair is ranked;
//   5. each symbol's id from the vocabulary, the unknown token's id for a symbol outside it.
// Special tokens written in the text (e.g. "<mask>") are not split off: they are tokenised as
// text (HF would map them to their ids; classification inputs do not contain them). Invalid
// UTF-8 bytes are pre-tokenised as punctuation and keep their byte, so every byte string is
// accepted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lm/tokenizer_config.h"

namespace assay::lm {

class BpeTokenizer {
 public:
  // vocab.json (an object token → id) and merges.txt (an optional "#version" line, then one
  // "left right" pair per line, highest priority first). Errors are ParseErrors naming the
  // file (and line): not an object, an id that is not a non-negative integer or repeats, a
  // merge line without exactly two symbols, a special token of `config` missing from the
  // vocabulary.
  static BpeTokenizer load(const std::string& vocab_json, const std::string& merges_txt,
                           const TokenizerConfig& config);
  // tokenizer.json of the `tokenizers` library: model.type "BPE", model.vocab, model.merges
  // (strings "left right" or two-element arrays); a ByteLevel pre_tokenizer's
  // add_prefix_space is honoured. Another model type is a ParseError naming it.
  static BpeTokenizer load_tokenizer_json(const std::string& path, const TokenizerConfig& config);

  // The BPE symbols of `text` (no <s>/</s>), as stored in the vocabulary (byte-mapped).
  std::vector<std::string> tokenize(std::string_view text) const;
  // Their ids.
  std::vector<std::int32_t> encode(std::string_view text) const;
  // <s> ids </s>, truncating `ids` so the result has at most `max_length` tokens.
  std::vector<std::int32_t> wrap(const std::vector<std::int32_t>& ids,
                                 std::size_t max_length) const;

  std::size_t size() const { return vocab_.size(); }
  // One more than the largest id.
  std::size_t id_limit() const { return id_limit_; }
  std::int32_t pad_id() const { return pad_; }
  std::int32_t unk_id() const { return unk_; }
  std::int32_t cls_id() const { return cls_; }
  std::int32_t sep_id() const { return sep_; }

 private:
  BpeTokenizer() = default;
  void finish(const std::string& path, const TokenizerConfig& config);
  void add_merge(std::string left, const std::string& right, const std::string& where);
  // Appends the symbols of one pre-token (already byte-mapped) to `out`.
  void merge_word(const std::string& mapped, std::vector<std::string>& out) const;

  std::unordered_map<std::string, std::int32_t> vocab_;
  std::unordered_map<std::string, std::int32_t> ranks_;  // "left right" → priority
  std::size_t id_limit_ = 0;
  bool add_prefix_space_ = false;
  std::int32_t pad_ = 0, unk_ = 0, cls_ = 0, sep_ = 0;
};

}  // namespace assay::lm
