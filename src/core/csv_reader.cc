#include "core/csv_reader.h"

#include <cmath>

#include "core/excerpt.h"
#include "core/latin1_source.h"
#include "core/number_parse.h"
#include "core/utf8.h"

namespace assay::core {

CsvReader::CsvReader(std::string path, CsvOptions options)
    : lines_(options.encoding == TextEncoding::kLatin1 ? latin1_source(open_file_source(path))
                                                       : open_file_source(path)),
      options_(options) {
  lines_.set_max_line_bytes(options_.max_record_bytes);
  if (options_.has_header) {
    std::vector<std::uint64_t> cols;
    if (!read_record(header_, cols)) {
      throw ParseError(SourceLocation{lines_.path(), 1, 0, std::nullopt},
                       "empty file, expected a header row");
    }
    n_fields_ = header_.size();
  }
}

std::optional<std::size_t> CsvReader::find_column(std::string_view name) const {
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] != name) continue;
    if (found) {
      std::string m = "the header names the column '";
      m += name;
      m += "' twice (columns " + std::to_string(*found + 1) + " and " + std::to_string(i + 1);
      m += "): rename one, so that it is clear which is meant";
      throw ParseError(SourceLocation{lines_.path(), 1, 0, std::nullopt}, m);
    }
    found = i;
  }
  return found;
}

std::size_t CsvReader::column(std::string_view name) const {
  if (auto index = find_column(name)) return *index;
  std::string known;
  for (const auto& h : header_) {
    if (h.empty()) continue;
    if (!known.empty()) known += ", ";
    known += h;
  }
  throw ParseError(
      SourceLocation{lines_.path(), 1, 0, std::nullopt},
      "expected a column named '" + std::string(name) + "' in the header; columns are: " + known);
}

const std::string& CsvReader::field(std::size_t index) const {
  ASSAY_CHECK(index < fields_.size());
  return fields_[index];
}

SourceLocation CsvReader::location(std::size_t index) const {
  if (index >= fields_.size()) return record_location();
  return SourceLocation{lines_.path(), field_lines_[index], columns_[index], std::nullopt};
}

SourceLocation CsvReader::record_location() const {
  return SourceLocation{lines_.path(), record_line_, 0, std::nullopt};
}

double CsvReader::number(std::size_t index, std::string_view what) const {
  const std::string& text = field(index);
  const auto value = parse_double(text);
  if (!value || !std::isfinite(*value)) {
    throw ParseError(location(index), "expected a number for " + std::string(what) + ", got '" +
                                          excerpt(text) + "'");
  }
  return *value;
}

bool CsvReader::next() {
  for (;;) {
    if (!read_record(fields_, columns_)) return false;
    if (fields_.size() == 1 && fields_[0].empty()) continue;  // blank line
    if (options_.fixed_field_count) {
      if (n_fields_ == 0) {
        n_fields_ = fields_.size();
      } else if (fields_.size() != n_fields_) {
        throw ParseError(record_location(), "expected " + std::to_string(n_fields_) +
                                                " fields, got " + std::to_string(fields_.size()));
      }
    }
    return true;
  }
}

bool CsvReader::read_record(std::vector<std::string>& out, std::vector<std::uint64_t>& columns) {
  std::string_view raw;
  if (!lines_.next(raw)) return false;
  out.clear();
  columns.clear();
  field_lines_.clear();
  record_line_ = lines_.line_number();

  // LineReader validated the UTF-8 (latin1_source decoded a Latin-1 file).
  std::string line(raw);
  std::size_t record_bytes = line.size();

  std::string current;
  bool in_quotes = false;
  bool was_quoted = false;
  std::size_t i = 0;
  std::uint64_t field_column = 1;
  std::uint64_t field_line = record_line_;
  auto finish_field = [&]() {
    out.push_back(std::move(current));
    columns.push_back(field_column);
    field_lines_.push_back(field_line);
    current.clear();
    was_quoted = false;
  };
  for (;;) {
    if (i >= line.size()) {
      if (in_quotes) {
        std::string_view more;
        if (!lines_.next(more)) {
          throw ParseError(SourceLocation{lines_.path(), field_line, field_column, std::nullopt},
                           "unterminated quoted field; expected a closing '\"'");
        }
        record_bytes += 1 + more.size();
        if (record_bytes > options_.max_record_bytes) {
          throw ParseError(
              SourceLocation{lines_.path(), record_line_, 0, std::nullopt},
              "a record longer than the limit of " + std::to_string(options_.max_record_bytes) +
                  " bytes (its quoted field at line " + std::to_string(field_line) + ", column " +
                  std::to_string(field_column) + " may lack its closing '\"')");
        }
        current.push_back('\n');
        line.assign(more);
        i = 0;
        continue;
      }
      finish_field();
      return true;
    }
    const char c = line[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          current.push_back('"');
          i += 2;
        } else {
          in_quotes = false;
          ++i;
        }
      } else {
        current.push_back(c);
        ++i;
      }
      continue;
    }
    if (c == options_.delimiter) {
      finish_field();
      ++i;
      field_column = utf8_column(line, i) + 1;
      field_line = lines_.line_number();
      continue;
    }
    if (c == '"' && options_.quoting) {
      if (current.empty() && !was_quoted) {
        in_quotes = true;
        was_quoted = true;
        ++i;
        continue;
      }
      throw ParseError(lines_.location(utf8_column(line, i) + 1),
                       "unexpected '\"' inside an unquoted field; expected the field to be "
                       "quoted as a whole");
    }
    if (was_quoted) {
      throw ParseError(lines_.location(utf8_column(line, i) + 1),
                       "unexpected character after a closing quote; expected a delimiter");
    }
    current.push_back(c);
    ++i;
  }
}

}  // namespace assay::core
