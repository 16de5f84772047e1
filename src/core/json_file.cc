#include "core/json_file.h"

#include <algorithm>
#include <vector>

#include "core/error.h"
#include "core/excerpt.h"
#include "core/json_depth.h"
#include "core/line_reader.h"

namespace assay::core {

nlohmann::json read_json_file(const std::string& path) {
  LineReader lines(path);
  std::string text;
  std::vector<std::size_t> starts;  // byte offset of each line in `text`
  std::string_view line;
  while (lines.next(line)) {
    starts.push_back(text.size());
    if (line.size() >= lines.max_line_bytes() - text.size()) {  // the whole document, bounded
      throw ParseError(lines.location(), "a JSON document larger than the limit of " +
                                             std::to_string(lines.max_line_bytes()) + " bytes");
    }
    text.append(line);
    text.push_back('\n');
  }
  if (text.find_first_not_of(" \t\n") == std::string::npos) {
    throw ParseError(SourceLocation{lines.path()}, "empty file, expected a JSON document");
  }
  if (json_nests_deeper(text))
    throw ParseError(SourceLocation{lines.path()},
                     "not valid JSON: the document " + json_too_deep_reason());
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const auto pos = what.find("]: ");
    if (pos != std::string::npos) what = what.substr(pos + 3);
    what = excerpt(what, 200);  // nlohmann quotes what it read ("last read: ...")
    // e.byte is 1-based; find its line.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    const auto it = std::upper_bound(starts.begin(), starts.end(), offset);
    const std::size_t index =
        it == starts.begin() ? 0 : static_cast<std::size_t>(it - starts.begin()) - 1;
    const std::size_t column = offset - starts[index] + 1;
    throw ParseError(SourceLocation{lines.path(), index + 1, column}, "not valid JSON: " + what);
  } catch (const nlohmann::json::exception& e) {  // e.g. out_of_range: a number too large
    throw ParseError(SourceLocation{lines.path()}, std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace assay::core
