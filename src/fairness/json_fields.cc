#include "fairness/json_fields.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>

#include "core/json_depth.h"

namespace assay::fairness {

using core::ParseError;
using core::SourceLocation;
using nlohmann::json;

json read_json_document(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw core::IoError(SourceLocation(path), "cannot read the file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (core::json_nests_deeper(text))
    throw core::ParseError(SourceLocation(path),
                           "not valid JSON: the document " + core::json_too_deep_reason());
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    const std::size_t byte = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const auto begin = text.begin();
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(
                                     begin, begin + static_cast<std::ptrdiff_t>(byte), '\n'));
    const std::size_t line_start = text.rfind('\n', byte == 0 ? 0 : byte - 1);
    const std::size_t column =
        line_start == std::string::npos || line == 1 ? byte + 1 : byte - line_start;
    std::string detail = e.what();
    const auto colon = detail.find(": ", detail.find("column"));
    if (colon != std::string::npos) detail = detail.substr(colon + 2);
    throw ParseError(SourceLocation(path, line, column), "not valid JSON: " + detail);
  }
}

const json& JsonFields::get(const json& v, const std::string& key) const {
  if (!v.is_object()) throw ParseError(where, "expected a JSON object");
  const auto it = v.find(key);
  if (it == v.end()) throw ParseError(where, "missing '" + key + "'");
  return *it;
}

std::size_t JsonFields::count(const json& v, const std::string& key) const {
  return as_count(get(v, key), key);
}

std::size_t JsonFields::as_count(const json& x, const std::string& key) const {
  if (!x.is_number_unsigned() && !(x.is_number_integer() && x.get<long long>() >= 0)) {
    throw ParseError(where, "'" + key + "' must be a non-negative integer, got " + x.dump());
  }
  return x.get<std::size_t>();
}

double JsonFields::number(const json& v, const std::string& key) const {
  const json& x = get(v, key);
  if (x.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!x.is_number()) throw ParseError(where, "'" + key + "' must be a number, got " + x.dump());
  return x.get<double>();
}

std::string JsonFields::text(const json& v, const std::string& key) const {
  const json& x = get(v, key);
  if (!x.is_string()) throw ParseError(where, "'" + key + "' must be a string, got " + x.dump());
  return x.get<std::string>();
}

const json& JsonFields::array(const json& v, const std::string& key) const {
  const json& x = get(v, key);
  if (!x.is_array()) throw ParseError(where, "'" + key + "' must be an array");
  return x;
}

double JsonFields::top_score(const json& v, const std::string& key) const {
  const json& a = array(v, key);
  double best = -std::numeric_limits<double>::infinity();
  for (const auto& x : a) {
    if (!x.is_number()) throw ParseError(where, "'" + key + "' must hold numbers");
    best = std::max(best, x.get<double>());
  }
  if (a.empty()) throw ParseError(where, "'" + key + "' is empty");
  return best;
}

}  // namespace assay::fairness
