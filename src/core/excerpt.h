// Short excerpts of input for error messages: a message quotes at most a few dozen bytes of the
// offending input, never a whole (possibly 10 MB) line. Error itself also cuts any message
// detail longer than kMaxErrorDetail bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assay::core {

inline constexpr std::size_t kMaxErrorDetail = 1000;

// `text` safe to print on a terminal: every control byte but newline and tab (ESC, BEL, CR,
// DEL...) and every C1 control character (U+0080..U+009F, e.g. the CSI that starts a terminal
// escape sequence) is written as \xHH (\u00HH for C1); a backslash stays as it is. Every line
// that copies text from a model, an input file or a command line to the terminal goes through
// it (assay's main prints every error through it).
std::string escape_control(std::string_view text);

// At most `max_bytes` of `text`, cut at a UTF-8 character boundary, with "..." appended when cut.
std::string excerpt(std::string_view text, std::size_t max_bytes = 60);

}  // namespace assay::core
