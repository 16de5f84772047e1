// BasicTokenizer: BERT's pre-tokenisation, following Hugging Face's BasicTokenizer
// (transformers/models/bert/tokenization_bert.py) with do_lower_case=True,
// tokenize_chinese_chars=True and strip_accents unset (so accents are stripped):
//   1. clean: drop U+0000, U+FFFD and control characters (Unicode category C*, except tab,
//      LF, CR); map whitespace (space, tab, LF, CR, category Zs) to a space;
//   2. put spaces around CJK ideographs (the CJK Unified Ideographs blocks HF lists);
//   3. NFC-normalise, then split on whitespace (as Python's str.split(), which also splits
//      at U+2028/U+2029);
//   4. per token (unless it is a never-split token such as "[MASK]"): lower-case (Python's
//      str.lower(): full mapping, so U+0130 becomes "i̇" and a word-final Σ becomes ς), NFD
//      and drop nonspacing marks (category Mn), then split off every punctuation character
//      (ASCII symbols 33–47, 58–64, 91–96, 123–126 and Unicode category P*).
// With lower_case false (tokenizer_config.json's do_lower_case: false, a cased model), step 4
// neither lower-cases nor strips accents; strip_accents, when set, overrides the accent rule
// either way (as HF's strip_accents argument).
// Invalid UTF-8 bytes are read as U+FFFD and therefore dropped, so any byte string is accepted.
// Unicode tables come from libutf8proc (its Unicode version may differ from Python's).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::lm {

struct BasicTokenizerOptions {
  bool lower_case = true;
  std::optional<bool> strip_accents;  // unset: strip exactly when lower-casing
};

class BasicTokenizer {
 public:
  using Options = BasicTokenizerOptions;

  explicit BasicTokenizer(std::vector<std::string> never_split = {}, Options options = {})
      : never_split_(std::move(never_split)), options_(options) {}

  std::vector<std::string> tokenize(std::string_view text) const;

 private:
  std::vector<std::string> never_split_;
  Options options_;
};

}  // namespace assay::lm
