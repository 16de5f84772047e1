// Inputs of the fairness commands: one text per record, from
//  - plain lines (every line is a text; an empty line is an empty text, kept and counted),
//  - TSV with the label as the last tab-separated field (the IMDB sample's layout; tabs
//    inside the text stay in the text),
//  - CSV with a header, the text in a named column (and optionally a label column).
// Everything is read and validated before anything is returned, so a caller that writes
// output only afterwards never leaves a partial result: invalid UTF-8 and a line longer than
// max_line_bytes are core::ParseError at file:line[:column].
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::fairness {

enum class InputFormat { kLines, kTsv, kCsv };
// "lines", "tsv", "csv"; throws core::UsageError otherwise.
InputFormat parse_input_format(std::string_view name);

struct InputOptions {
  InputFormat format = InputFormat::kLines;
  std::string text_column;   // CSV: required
  std::string label_column;  // CSV: optional
  std::size_t max_line_bytes = std::size_t{1} << 20;
};

struct InputRecord {
  std::uint64_t line = 0;  // 1-based line (CSV: where the record starts)
  std::string text;
  std::optional<std::string> label;
};

std::vector<InputRecord> read_inputs(const std::string& path, const InputOptions& options);

}  // namespace assay::fairness
