// libFuzzer target: any byte string through BasicTokenizer and WordpieceTokenizer with the
// tiny test vocabulary. Invariants checked: no crash/ASan report, every piece is a vocabulary
// token, encode() and tokenize() agree. Run: tools/fuzz/run.sh tokenizer
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lm/basic_tokenizer.h"
#include "lm/bert_vocab.h"
#include "lm/wordpiece_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const assay::lm::BertVocab vocab =
      assay::lm::BertVocab::load(ASSAY_FUZZ_DATA_DIR "/lm/bert/vocab.txt");
  static const assay::lm::WordpieceTokenizer tok(vocab);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto ids = tok.encode(text);
  const auto pieces = tok.tokenize(text);
  if (ids.size() != pieces.size()) std::abort();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= vocab.size()) std::abort();
    if (vocab.token(ids[i]) != pieces[i]) std::abort();
  }
  assay::lm::BasicTokenizer basic;
  for (const auto& w : basic.tokenize(text)) {
    if (w.empty()) std::abort();
  }
  return 0;
}
