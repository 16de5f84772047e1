// Rebuilding a text after token-level mutations: every byte outside the edited spans is kept,
// so spacing, punctuation and case of the untouched parts survive exactly.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/token.h"

namespace assay::text {

// Replace bytes [begin, end) of the original by `replacement`; begin == end inserts.
struct TextEdit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string replacement;
};

// Applies `edits` to `original`. Edits may come in any order; insertions at the same offset
// keep their given order and go before a replacement starting there. Throws core::UsageError
// when an edit lies outside the text, has end < begin, or overlaps another edit.
std::string apply_edits(std::string_view original, std::vector<TextEdit> edits);

// Convenience: replace the span of `token` by `replacement`.
inline TextEdit replace_token(const Token& token, std::string replacement) {
  return TextEdit{token.begin, token.end, std::move(replacement)};
}
// Convenience: insert `text` right before `token` (for "the actor" -> "the female actor" pass
// "female ").
inline TextEdit insert_before(const Token& token, std::string text) {
  return TextEdit{token.begin, token.begin, std::move(text)};
}

}  // namespace assay::text
