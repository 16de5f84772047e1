// Whitespace-separated fields of a text line (spaces and tabs), each with its 1-based byte
// column so that a parse error can say where it is: the ARPA and word2vec text readers.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace assay::core {

struct Field {
  std::string_view text;
  std::uint64_t column;  // 1-based byte column
};

// The fields of `line` into `out` (cleared first); they view into `line`.
void split_fields(std::string_view line, std::vector<Field>& out);

}  // namespace assay::core
