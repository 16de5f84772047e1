#include "fairness/fairness_input.h"

#include "core/csv_reader.h"
#include "core/error.h"
#include "core/line_reader.h"

namespace assay::fairness {

InputFormat parse_input_format(std::string_view name) {
  if (name == "lines") return InputFormat::kLines;
  if (name == "tsv") return InputFormat::kTsv;
  if (name == "csv") return InputFormat::kCsv;
  throw core::UsageError("--format must be lines, tsv or csv; got '" + std::string(name) + "'");
}

namespace {

void check_length(std::size_t n, std::size_t limit, const core::SourceLocation& where) {
  if (n > limit) {
    throw core::ParseError(where, "a text of " + std::to_string(n) +
                                      " bytes is longer than the limit of " +
                                      std::to_string(limit) + " bytes");
  }
}

std::vector<InputRecord> read_csv(const std::string& path, const InputOptions& o) {
  if (o.text_column.empty()) throw core::UsageError("CSV input needs --text-column");
  core::CsvReader reader(path);
  const std::size_t text = reader.column(o.text_column);
  std::optional<std::size_t> label;
  if (!o.label_column.empty()) label = reader.column(o.label_column);
  std::vector<InputRecord> out;
  while (reader.next()) {
    InputRecord r;
    r.line = reader.record_line();
    r.text = reader.field(text);
    check_length(r.text.size(), o.max_line_bytes, reader.location(text));
    if (label) r.label = reader.field(*label);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::vector<InputRecord> read_inputs(const std::string& path, const InputOptions& o) {
  if (o.format == InputFormat::kCsv) return read_csv(path, o);
  core::LineReader reader(path);
  std::vector<InputRecord> out;
  std::string_view line;
  while (reader.next(line)) {
    check_length(line.size(), o.max_line_bytes, reader.location());
    InputRecord r;
    r.line = reader.line_number();
    if (o.format == InputFormat::kTsv && !line.empty()) {
      const auto tab = line.rfind('\t');
      if (tab == std::string_view::npos) {
        throw core::ParseError(reader.location(),
                               "expected TEXT<TAB>LABEL (the label is the last field)");
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

}  // namespace assay::fairness
