// Reads the committed tag goldens (tools/goldens/text_tagger.sh) and the matching sentences
// from ../shared/data for the agreement tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/line_reader.h"

namespace assay::testing {

inline std::vector<std::string> split_spaces(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// One vector of tags per sentence; '#' lines are comments.
inline std::vector<std::vector<std::string>> read_golden_tags(const std::string& path) {
  core::LineReader reader(path);
  std::vector<std::vector<std::string>> out;
  std::string_view line;
  while (reader.next(line)) {
    if (!line.empty() && line[0] == '#') continue;
    out.push_back(split_spaces(line));
  }
  return out;
}

inline std::vector<std::string> read_lines(const std::string& path, std::size_t n) {
  core::LineReader reader(path);
  std::vector<std::string> out;
  std::string_view line;
  while (out.size() < n && reader.next(line)) out.emplace_back(line);
  return out;
}

inline const char* kRtPolarityPos = ASSAY_SHARED_DATA_DIR "/rt-polarity-v1.0/rt-polarity.pos";
inline const char* kGoldenTags = ASSAY_TEST_DATA_DIR "/text/rt_polarity_pos_1000.tags";

}  // namespace assay::testing
