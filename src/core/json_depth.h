// A bound on how deeply JSON from outside may nest. nlohmann::json parses without recursion,
// but copying, dumping and walking a value recurse once per level: a request, an answer or a
// file that nests arrays 100,000 deep would overflow the stack. Every parser of JSON that comes
// from outside (proxy requests, http: answers, cmd: model and recommender lines, files) refuses
// text deeper than kMaxJsonDepth before parsing it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assay::core {

inline constexpr std::size_t kMaxJsonDepth = 64;

// Whether `text` opens more than `limit` arrays and objects inside each other (brackets inside
// strings do not count). Linear in the text; does not check the rest of the syntax.
bool json_nests_deeper(std::string_view text, std::size_t limit = kMaxJsonDepth);

// "nests arrays or objects deeper than 64 levels": the reason the parsers give.
std::string json_too_deep_reason();

}  // namespace assay::core
