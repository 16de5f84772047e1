// AEON test cases <original x, generated x̂> and their input formats.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"

namespace assay::aeon {

struct TestCase {
  std::string original;
  std::string generated;
  core::SourceLocation where;  // the line the case came from (of the generated file)
};

// Two line files, case i = line i of each. Different line counts are a ParseError naming the
// shorter file and where it ended. `[[`/`]]` markers are stripped when strip_markers is set.
std::vector<TestCase> read_line_pairs(const std::string& original_path,
                                      const std::string& generated_path, bool strip_markers);

// JSON lines with string fields "original" and "generated" (or the annotation names
// "ori_text" and "adv_text"); a missing or non-string field is a ParseError at its line.
std::vector<TestCase> read_jsonl_pairs(const std::string& path, bool strip_markers);

// One CSV field, quoted when it holds a comma, quote, CR or LF (RFC 4180).
std::string csv_field(const std::string& value);

}  // namespace assay::aeon
