#include "core/jsonl.h"

#include <cerrno>
#include <cstring>
#include <iostream>

#include "core/excerpt.h"
#include "core/json_depth.h"

namespace assay::core {

bool JsonlReader::next(nlohmann::json& value) {
  std::string_view line;
  while (lines_.next(line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (json_nests_deeper(line))
      throw ParseError(lines_.location(),
                       "expected one JSON value per line: the line " + json_too_deep_reason());
    try {
      value = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      std::string what = e.what();
      const auto pos = what.find("]: ");
      if (pos != std::string::npos) what = what.substr(pos + 3);
      what = excerpt(what, 200);  // nlohmann quotes what it read ("last read: ...")
      throw ParseError(lines_.location(e.byte), "expected one JSON value per line: " + what);
    } catch (const nlohmann::json::exception& e) {  // e.g. out_of_range: a number too large
      throw ParseError(lines_.location(),
                       std::string("expected one JSON value per line: ") + e.what());
    }
    return true;
  }
  return false;
}

void write_jsonl(std::ostream& out, const nlohmann::ordered_json& value) {
  errno = 0;
  out << value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  if (out || &out != &std::cout) return;
  const int err = errno;
  throw IoError(std::string("cannot write standard output: ") +
                (err != 0 ? std::strerror(err) : "write failed (disk full or file closed?)"));
}

const nlohmann::json& require_key(const nlohmann::json& value, const std::string& key,
                                  const SourceLocation& where) {
  if (!value.is_object()) throw ParseError(where, "expected a JSON object");
  const auto it = value.find(key);
  if (it == value.end()) throw ParseError(where, "expected a key '" + key + "'");
  return *it;
}

}  // namespace assay::core
