// Inputs of the fairness commands: the records of models::read_text_records (plain lines, TSV or
// CSV with a header, TEXT<TAB>LABEL lines), each with its line and its label when the file has
// one. Everything is read and checked before anything is returned (see models/text_input.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/text_input.h"

namespace assay::fairness {

struct InputRecord {
  std::uint64_t line = 0;  // 1-based line (TSV, CSV: where the record starts)
  std::string text;
  std::optional<std::string> label;
};

// Throws the errors of models::read_text_records.
std::vector<InputRecord> read_inputs(const std::string& path,
                                     const models::TextInputOptions& options);

}  // namespace assay::fairness
