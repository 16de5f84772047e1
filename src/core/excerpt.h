// Short excerpts of input for error messages: a message quotes at most a few dozen bytes of the
// offending input, never a whole (possibly 10 MB) line. Error itself also cuts any message
// detail longer than kMaxErrorDetail bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assay::core {

inline constexpr std::size_t kMaxErrorDetail = 1000;

// At most `max_bytes` of `text`, cut at a UTF-8 character boundary, with "..." appended when cut.
std::string excerpt(std::string_view text, std::size_t max_bytes = 60);

}  // namespace assay::core
