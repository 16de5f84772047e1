// How a command reads its texts: --input, --input-format, --text-column, --label-column,
// --latin1 and --max-line-bytes, registered once for every command that reads texts (the model
// commands and the fairness commands) and turned into models::TextInputOptions in one place,
// so that the same flags read the same records everywhere.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "core/error.h"
#include "models/text_input.h"

namespace assay::cli {

struct InputFileOptions {
  std::string input;
  std::string format = "auto";
  std::string text_column, label_column;
  bool latin1 = false;
  std::size_t max_line_bytes = std::size_t{1} << 20;
};

// Registers the input file as `flag` (required; `model train-lr` calls it --train) with
// `description`, and --input-format, --text-column, --label-column, --latin1,
// --max-line-bytes on `cmd`.
void add_input_options(CLI::App* cmd, InputFileOptions& o, const std::string& flag = "--input",
                       const std::string& description =
                           "Texts: one per line ('-' for stdin), or a table with a header "
                           "(see --input-format)");

// The options checked and turned into the reader's. Throws core::UsageError naming the flags
// for an unknown --input-format, a table format without --text-column and a column named for a
// format without a header.
models::TextInputOptions text_input_options(const InputFileOptions& o);

// Reads o.input with `read` (models::read_text_records or fairness::read_inputs) and the options
// above; an error about invalid UTF-8 says to try --latin1.
template <class Record>
std::vector<Record> read_input(const InputFileOptions& o,
                               std::vector<Record> (*read)(const std::string&,
                                                           const models::TextInputOptions&)) {
  const auto options = text_input_options(o);
  try {
    return read(o.input, options);
  } catch (core::ParseError& e) {
    if (!o.latin1 && e.detail().starts_with("invalid UTF-8"))
      e.add_context("use --latin1 for ISO-8859-1 input");
    throw;
  }
}

}  // namespace assay::cli
