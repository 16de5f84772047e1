#include "input_options.h"

#include "option_checks.h"

namespace assay::cli {

void add_input_options(CLI::App* cmd, InputFileOptions& o, const std::string& flag,
                       const std::string& description) {
  cmd->add_option(flag, o.input, description)->required();
  cmd->add_option("--input-format", o.format,
                  "auto (lines; with --text-column a table: csv for *.csv, tsv otherwise), "
                  "lines, tsv or csv (a header row, the text in --text-column), tsv-no-header "
                  "(TEXT<TAB>LABEL lines)")
      ->capture_default_str();
  cmd->add_option("--text-column", o.text_column, "TSV/CSV: the header's name of the text column");
  cmd->add_option("--label-column", o.label_column,
                  "TSV/CSV: the header's name of each text's label column");
  cmd->add_flag("--latin1", o.latin1, "The input is ISO-8859-1, not UTF-8");
  add_count(cmd, "--max-line-bytes", o.max_line_bytes, "Longest text accepted",
            {.min = 1, .max = 1'000'000'000'000})
      ->capture_default_str();
}

models::TextInputOptions text_input_options(const InputFileOptions& o) {
  const auto format = models::parse_text_format(o.format);
  if (!format) {
    throw core::UsageError("--input-format must be " + std::string(models::text_format_names()) +
                           "; got '" + o.format + "'");
  }
  const bool table = *format == models::TextFormat::kTsv || *format == models::TextFormat::kCsv;
  const bool columns = !o.text_column.empty() || !o.label_column.empty();
  if (table && o.text_column.empty()) {
    throw core::UsageError("--input-format " + o.format +
                           " reads a header row: name the text column with --text-column (for "
                           "TEXT<TAB>LABEL lines without a header: --input-format tsv-no-header)");
  }
  if (!table && *format != models::TextFormat::kAuto && columns) {
    throw core::UsageError("--text-column and --label-column name columns of a header row; " +
                           ("--input-format " + o.format) + " has none (use tsv or csv)");
  }
  if (*format == models::TextFormat::kAuto && o.text_column.empty() && !o.label_column.empty()) {
    throw core::UsageError(
        "--label-column needs --text-column (a TSV or CSV file with a header row)");
  }
  models::TextInputOptions t;
  t.format = *format;
  t.text_column = o.text_column;
  t.label_column = o.label_column;
  t.latin1 = o.latin1;
  t.max_line_bytes = o.max_line_bytes;
  return t;
}

}  // namespace assay::cli
