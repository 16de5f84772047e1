// WordpieceTokenizer: BERT's full tokenisation — BasicTokenizer, then greedy longest-match
// WordPiece against a BertVocab with "##" marking word continuations, as Hugging Face's
// BertTokenizer, with the vocabulary's tokenizer_config.json settings (do_lower_case,
// strip_accents; lower-cased by default). A word longer than 100 code points, or one that
// cannot be covered by vocabulary pieces, becomes a single [UNK]. The special tokens ([CLS]
// [SEP] [MASK] [PAD] [UNK] or the config's) written literally as whitespace-separated words
// are kept whole.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lm/basic_tokenizer.h"
#include "lm/bert_vocab.h"

namespace assay::lm {

class WordpieceTokenizer {
 public:
  static constexpr std::size_t kMaxInputCharsPerWord = 100;

  // `vocab` must outlive the tokenizer.
  explicit WordpieceTokenizer(const BertVocab& vocab);

  // Word pieces of `text` (no [CLS]/[SEP]).
  std::vector<std::string> tokenize(std::string_view text) const;
  // Their ids.
  std::vector<std::int32_t> encode(std::string_view text) const;
  // [CLS] ids [SEP], truncating `ids` so the result has at most `max_length` tokens.
  std::vector<std::int32_t> wrap(const std::vector<std::int32_t>& ids,
                                 std::size_t max_length) const;

  const BertVocab& vocab() const { return vocab_; }

 private:
  // Appends the pieces of one basic token to `out`.
  void split_word(const std::string& word, std::vector<std::int32_t>& out) const;

  const BertVocab& vocab_;
  BasicTokenizer basic_;
};

}  // namespace assay::lm
