// Strict number parsing for text fields: the whole field must be a number (surrounding spaces
// allowed), otherwise nullopt. Callers turn nullopt into a ParseError with their location.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace assay::core {

std::optional<double> parse_double(std::string_view text);
std::optional<std::int64_t> parse_int64(std::string_view text);

}  // namespace assay::core
