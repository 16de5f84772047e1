// UTF-8 validation and Latin-1 decoding for text inputs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace assay::core {

// Returns the byte index of the first invalid UTF-8 sequence (overlong forms, surrogates and
// code points above U+10FFFF are invalid), or nullopt when `text` is valid.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// Decodes ISO-8859-1 bytes to UTF-8 (every byte is a valid Latin-1 character).
std::string latin1_to_utf8(std::string_view text);

// Number of code points in valid UTF-8 `text` before byte `byte_index` (for 1-based columns).
std::size_t utf8_column(std::string_view text, std::size_t byte_index);

}  // namespace assay::core
