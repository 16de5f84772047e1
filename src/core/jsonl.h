// JSON lines: one JSON value per line (nlohmann::json). Blank lines are skipped; a malformed
// line is a ParseError with its line and column.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "core/line_reader.h"

namespace assay::core {

class JsonlReader {
 public:
  explicit JsonlReader(std::string path) : lines_(std::move(path)) {}
  // Reads the next value; false at end of input.
  bool next(nlohmann::json& value);
  std::uint64_t line_number() const { return lines_.line_number(); }
  SourceLocation location() const { return lines_.location(); }
  const std::string& path() const { return lines_.path(); }

 private:
  LineReader lines_;
};

// Writes `value` compactly on one line (keys in insertion order of nlohmann::ordered_json).
// When `out` is std::cout, throws IoError naming standard output as soon as a write to it fails
// (a closed pipe or a full disk is noticed when the buffer is written, not at exit), so a
// command that streams its results stops promptly. A failed write to another stream is left
// to its owner (AtomicFileWriter::commit reports it with the file's name).
void write_jsonl(std::ostream& out, const nlohmann::ordered_json& value);

// Returns value[key] as the given type, or throws ParseError at `where` naming the key.
const nlohmann::json& require_key(const nlohmann::json& value, const std::string& key,
                                  const SourceLocation& where);

}  // namespace assay::core
