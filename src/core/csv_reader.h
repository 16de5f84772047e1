// CsvReader reads RFC 4180 delimited text (CSV, TSV or any single-byte delimiter): quoted
// fields with doubled quotes, delimiters and newlines inside quotes, LF or CRLF endings, an
// optional header row looked up by name. Text is validated as UTF-8, or decoded from Latin-1.
//
// Every record must have as many fields as the first one (the header when there is one);
// otherwise a ParseError names the file and line. Blank lines are skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/check.h"
#include "core/line_reader.h"

namespace assay::core {

enum class TextEncoding { kUtf8, kLatin1 };

struct CsvOptions {
  char delimiter = ',';
  bool has_header = true;
  bool quoting = true;  // false: quotes are ordinary characters (e.g. MovieLens u.item)
  TextEncoding encoding = TextEncoding::kUtf8;
  // false: records may have any number of fields (the caller checks).
  bool fixed_field_count = true;
  // The longest record, in bytes: a line, or the lines of a quoted field that holds newlines.
  // A longer one is a ParseError at its first line as soon as the limit is passed.
  std::size_t max_record_bytes = LineReader::kDefaultMaxLineBytes;
};

class CsvReader {
 public:
  explicit CsvReader(std::string path, CsvOptions options = {});

  // Header names (empty when has_header is false).
  const std::vector<std::string>& header() const { return header_; }
  // Index of the named column, if any; a name the header holds twice is a ParseError at line 1
  // naming both columns (which one is meant cannot be told).
  std::optional<std::size_t> find_column(std::string_view name) const;
  // Index of the named column; throws ParseError at line 1 listing the available columns.
  std::size_t column(std::string_view name) const;

  // Reads the next record; false at end. Fields stay valid until the next call.
  bool next();
  const std::vector<std::string>& fields() const { return fields_; }
  const std::string& field(std::size_t index) const;
  // Line on which the current record starts.
  std::uint64_t record_line() const { return record_line_; }
  // Location of field `index` of the current record (line and 1-based character column).
  SourceLocation location(std::size_t index) const;
  SourceLocation record_location() const;
  const std::string& path() const { return lines_.path(); }

  // Parses field `index` as a finite number; the error names file, line, column and `what`.
  double number(std::size_t index, std::string_view what) const;

 private:
  bool read_record(std::vector<std::string>& out, std::vector<std::uint64_t>& columns);

  LineReader lines_;
  CsvOptions options_;
  std::vector<std::string> header_;
  std::vector<std::string> fields_;
  std::vector<std::uint64_t> columns_;  // 1-based column of each field on its line
  std::vector<std::uint64_t> field_lines_;
  std::size_t n_fields_ = 0;
  std::uint64_t record_line_ = 0;
  std::string decoded_;
};

}  // namespace assay::core
