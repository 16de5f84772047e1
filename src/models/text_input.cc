#include "models/text_input.h"

#include "core/csv_reader.h"
#include "core/latin1_source.h"
#include "core/line_reader.h"

namespace assay::models {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

namespace {
std::vector<TextRecord> read_records(const std::string& path, const TextInputOptions& options) {
  std::vector<TextRecord> out;
  if (options.text_column.empty()) {
    if (!options.label_column.empty()) {
      throw core::UsageError("a label column needs a text column (a TSV or CSV file)");
    }
    core::LineReader lines(options.latin1 ? core::latin1_source(core::open_file_source(path))
                                          : core::open_file_source(path));
    std::string_view line;
    while (lines.next(line)) {
      TextRecord r;
      r.text = std::string(line);
      r.location = lines.location();
      out.push_back(std::move(r));
    }
    return out;
  }
  core::CsvOptions csv;
  const bool is_csv = ends_with(path, ".csv");
  csv.delimiter = is_csv ? ',' : '\t';
  csv.quoting = is_csv;  // TSV fields hold quotes as they are (no tab or newline inside)
  csv.encoding = options.latin1 ? core::TextEncoding::kLatin1 : core::TextEncoding::kUtf8;
  core::CsvReader reader(path, csv);
  const std::size_t text_index = reader.column(options.text_column);
  const std::size_t label_index =
      options.label_column.empty() ? 0 : reader.column(options.label_column);
  while (reader.next()) {
    TextRecord r;
    r.text = reader.field(text_index);
    if (!options.label_column.empty()) {
      r.label = reader.field(label_index);
      if (r.label.empty()) {
        throw core::ParseError(reader.location(label_index),
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
  try {
    return read_records(path, options);
  } catch (core::ParseError& e) {
    if (!options.latin1 && e.detail().starts_with("invalid UTF-8")) {
      e.add_context("use --latin1 for ISO-8859-1 input");
    }
    throw;
  }
}

}  // namespace assay::models
