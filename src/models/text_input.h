// The one reader of texts, labelled or not, for every command that reads them (the model
// commands and the fairness commands):
//
//   lines          one text per line, every line (an empty line is an empty text), LF or CRLF
//   tsv            a header row naming the columns, then tab-separated fields (no quoting: a '"'
//                  is an ordinary character and a field cannot hold a tab or a newline)
//   csv            a header row, then CSV (',', RFC 4180 quoting)
//   tsv-no-header  TEXT<TAB>LABEL lines without a header: the label is the last tab-separated
//                  field and tabs before it stay in the text (an empty line is an unlabelled
//                  empty text)
//   auto           lines without a text column; with one, csv when the file name ends in .csv
//                  and tsv otherwise
//
// In tsv and csv the text comes from `text_column` (required) and the label, when
// `label_column` is set, from that column (an empty label is an error). Input is UTF-8 (checked;
// the error names file, line and column) or, with `latin1`, ISO-8859-1 decoded to UTF-8; a text
// longer than `max_line_bytes` is an error at its line. The limit holds while the file is read:
// a line of `lines` or `tsv-no-header`, or a record of a table, longer than it (a table's: twice
// it, room for the other columns) or a NUL byte stops the read at once, so neither a device
// (/dev/zero), a pipe nor a file of one huge line makes memory grow past about twice the limit.
// Everything is read and checked before anything is returned, so a caller that writes only
// afterwards never leaves a partial output.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace assay::models {

enum class TextFormat { kAuto, kLines, kTsv, kCsv, kTsvNoHeader };

// "auto", "lines", "tsv", "csv", "tsv-no-header"; nullopt for anything else.
std::optional<TextFormat> parse_text_format(std::string_view name);
// The names above, as a list for messages: "auto, lines, tsv, csv or tsv-no-header".
const char* text_format_names();

struct TextInputOptions {
  TextFormat format = TextFormat::kAuto;
  std::string text_column;   // tsv, csv: required; lines, tsv-no-header: must be empty
  std::string label_column;  // tsv, csv: optional; lines, tsv-no-header: must be empty
  bool latin1 = false;
  std::size_t max_line_bytes = std::size_t{1} << 20;
};

// The format a file is read in: `options.format`, or for kAuto the one it stands for.
TextFormat resolved_text_format(const std::string& path, const TextInputOptions& options);

struct TextRecord {
  std::string text;
  std::optional<std::string> label;  // from the label column, or tsv-no-header's last field
  core::SourceLocation location;     // file and line the record starts on
};

// Throws core::UsageError for options that do not fit the format (a table without a text
// column, a column named for a format without a header), core::ParseError naming the file and
// line (a missing column lists the header's), core::IoError when the file cannot be read.
std::vector<TextRecord> read_text_records(const std::string& path, const TextInputOptions& options);

}  // namespace assay::models
