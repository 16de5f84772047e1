// A token of a text: the normalised form the tagger sees and the byte span it came from.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assay::text {

struct Token {
  // What the tagger looks up. Usually the bytes of the span; the Lingua tokeniser normalises a
  // few punctuation marks: an opening '"' becomes "``", a closing one "''", an opening "'"
  // becomes "`", and a run of dashes "-".
  std::string text;
  // Byte offsets [begin, end) into the tokenised string. Tokens are in order and do not
  // overlap; bytes between tokens (spaces, dropped runs of symbols) belong to no token.
  std::size_t begin = 0;
  std::size_t end = 0;

  std::string_view surface(std::string_view original) const {
    return original.substr(begin, end - begin);
  }
};

}  // namespace assay::text
