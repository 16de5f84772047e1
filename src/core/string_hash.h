// StringHash: a transparent hash for unordered containers keyed by std::string, so lookups by
// std::string_view or const char* build no temporary string:
//   std::unordered_map<std::string, V, core::StringHash, std::equal_to<>> map;
//   map.find(std::string_view("word"));
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace assay::core {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace assay::core
