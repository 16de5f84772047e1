#include "models/text_input.h"

#include <limits>

#include "core/csv_reader.h"
#include "core/latin1_source.h"
#include "core/line_reader.h"

namespace assay::models {

std::optional<TextFormat> parse_text_format(std::string_view name) {
  if (name == "auto") return TextFormat::kAuto;
  if (name == "lines") return TextFormat::kLines;
  if (name == "tsv") return TextFormat::kTsv;
  if (name == "csv") return TextFormat::kCsv;
  if (name == "tsv-no-header") return TextFormat::kTsvNoHeader;
  return std::nullopt;
}

const char* text_format_names() {
  return "auto, lines, tsv, csv or tsv-no-header";
}

TextFormat resolved_text_format(const std::string& path, const TextInputOptions& options) {
  if (options.format != TextFormat::kAuto) return options.format;
  if (options.text_column.empty()) return TextFormat::kLines;
  return path.ends_with(".csv") ? TextFormat::kCsv : TextFormat::kTsv;
}

namespace {

void check_length(std::size_t n, std::size_t limit, const core::SourceLocation& where) {
  if (n > limit) {
    throw core::ParseError(where, "a text of " + std::to_string(n) +
                                      " bytes is longer than the limit of " +
                                      std::to_string(limit) + " bytes");
  }
}

// lines and tsv-no-header: one record per line.
std::vector<TextRecord> read_lines(const std::string& path, const TextInputOptions& options,
                                   bool label_last) {
  if (!options.text_column.empty() || !options.label_column.empty()) {
    throw core::UsageError(path + ": a file " +
                           (label_last ? "without a header" : "of plain lines") +
                           " has no named columns (a text or label column names one of a "
                           "TSV or CSV header)");
  }
  core::LineReader lines(options.latin1 ? core::latin1_source(core::open_file_source(path))
                                        : core::open_file_source(path));
  lines.set_max_line_bytes(options.max_line_bytes);  // refused while it is read
  std::vector<TextRecord> out;
  std::string_view line;
  while (lines.next(line)) {
    TextRecord r;
    r.location = lines.location();
    if (label_last && !line.empty()) {
      const auto tab = line.rfind('\t');
      if (tab == std::string_view::npos || tab + 1 == line.size()) {
        throw core::ParseError(lines.location(),
                               "expected TEXT<TAB>LABEL (the label is the last field, "
                               "not empty)");
      }
      r.text = std::string(line.substr(0, tab));
      r.label = std::string(line.substr(tab + 1));
    } else {
      r.text = std::string(line);
    }
    out.push_back(std::move(r));
  }
  return out;
}

// tsv and csv: a header, the text and the label by column name.
std::vector<TextRecord> read_table(const std::string& path, const TextInputOptions& options,
                                   bool is_csv) {
  if (options.text_column.empty()) {
    throw core::UsageError(path + ": a " + (is_csv ? "CSV" : "TSV") +
                           " file is read by its header: the name of the text column is needed");
  }
  core::CsvOptions csv;
  csv.delimiter = is_csv ? ',' : '\t';
  csv.quoting = is_csv;  // TSV fields hold quotes as they are (no tab or newline inside)
  csv.encoding = options.latin1 ? core::TextEncoding::kLatin1 : core::TextEncoding::kUtf8;
  // A record holds the text and the other columns: up to as much again for them.
  csv.max_record_bytes = options.max_line_bytes > std::numeric_limits<std::size_t>::max() / 2
                             ? std::numeric_limits<std::size_t>::max()
                             : 2 * options.max_line_bytes;
  core::CsvReader reader(path, csv);
  const std::size_t text_index = reader.column(options.text_column);
  std::optional<std::size_t> label_index;
  if (!options.label_column.empty()) label_index = reader.column(options.label_column);
  std::vector<TextRecord> out;
  while (reader.next()) {
    TextRecord r;
    r.text = reader.field(text_index);
    check_length(r.text.size(), options.max_line_bytes, reader.location(text_index));
    if (label_index) {
      r.label = reader.field(*label_index);
      if (r.label->empty()) {
        throw core::ParseError(reader.location(*label_index),
                               "empty label in column '" + options.label_column + "'");
      }
    }
    r.location = reader.record_location();
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::vector<TextRecord> read_text_records(const std::string& path,
                                          const TextInputOptions& options) {
  switch (resolved_text_format(path, options)) {
    case TextFormat::kTsv:
      return read_table(path, options, false);
    case TextFormat::kCsv:
      return read_table(path, options, true);
    case TextFormat::kTsvNoHeader:
      return read_lines(path, options, true);
    default:
      return read_lines(path, options, false);
  }
}

}  // namespace assay::models
