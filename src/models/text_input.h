// Reading the texts a model is asked about, and labelled texts to train on.
//
// Plain text: one text per line, every line (an empty line is an empty text), LF or CRLF.
// Delimited: a header row naming the columns, then CSV (',', RFC 4180 quoting) when the file
// name ends in .csv, otherwise TSV (tab-separated, no quoting: a '"' is an ordinary character
// and a field cannot hold a tab or a newline); the text comes from `text_column` (and the label
// from `label_column`). Input is UTF-8 (checked; the error names file, line and column) or, with
// `latin1`, ISO-8859-1 decoded to UTF-8.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"

namespace assay::models {

struct TextInputOptions {
  std::string text_column;  // empty: plain lines
  std::string label_column;
  bool latin1 = false;
};

struct TextRecord {
  std::string text;
  std::string label;              // only when label_column is set
  core::SourceLocation location;  // file and line the record starts on
};

// Throws core::ParseError naming the file and line, core::IoError when it cannot be read.
std::vector<TextRecord> read_text_records(const std::string& path, const TextInputOptions& options);

}  // namespace assay::models
