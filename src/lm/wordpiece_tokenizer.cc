#include "lm/wordpiece_tokenizer.h"

#include <algorithm>

namespace assay::lm {
namespace {

// Byte offsets of the code point starts of valid UTF-8 `s` (BasicTokenizer's output is valid
// UTF-8), plus s.size() at the end.
std::vector<std::size_t> code_point_starts(const std::string& s) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  starts.push_back(s.size());
  return starts;
}

}  // namespace

WordpieceTokenizer::WordpieceTokenizer(const BertVocab& vocab)
    : vocab_(vocab),
      basic_({vocab.config().specials.unk, vocab.config().specials.sep, vocab.config().specials.pad,
              vocab.config().specials.cls, vocab.config().specials.mask},
             {vocab.config().lower_case, vocab.config().strip_accents}) {}

void WordpieceTokenizer::split_word(const std::string& word, std::vector<std::int32_t>& out) const {
  const auto starts = code_point_starts(word);
  const std::size_t n_chars = starts.size() - 1;
  if (n_chars > kMaxInputCharsPerWord) {
    out.push_back(vocab_.unk_id());
    return;
  }
  const std::size_t first = out.size();
  std::string piece;
  std::size_t start = 0;
  while (start < n_chars) {
    std::size_t end = n_chars;
    std::int32_t found = -1;
    while (start < end) {
      piece.assign(start > 0 ? "##" : "");
      piece.append(word, starts[start], starts[end] - starts[start]);
      if (const auto id = vocab_.find(piece)) {
        found = *id;
        break;
      }
      --end;
    }
    if (found < 0) {  // the whole word is unknown, as in HF (no partial pieces)
      out.resize(first);
      out.push_back(vocab_.unk_id());
      return;
    }
    out.push_back(found);
    start = end;
  }
}

std::vector<std::int32_t> WordpieceTokenizer::encode(std::string_view text) const {
  std::vector<std::int32_t> ids;
  for (const auto& word : basic_.tokenize(text)) split_word(word, ids);
  return ids;
}

std::vector<std::string> WordpieceTokenizer::tokenize(std::string_view text) const {
  std::vector<std::string> pieces;
  for (std::int32_t id : encode(text)) pieces.push_back(vocab_.token(id));
  return pieces;
}

std::vector<std::int32_t> WordpieceTokenizer::wrap(const std::vector<std::int32_t>& ids,
                                                   std::size_t max_length) const {
  std::vector<std::int32_t> out;
  const std::size_t keep = max_length >= 2 ? std::min(ids.size(), max_length - 2) : 0;
  out.reserve(keep + 2);
  out.push_back(vocab_.cls_id());
  out.insert(out.end(), ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(keep));
  out.push_back(vocab_.sep_id());
  return out;
}

}  // namespace assay::lm
