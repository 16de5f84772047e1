// A file holding one JSON document (a modification set, a label file), read through LineReader
// so the text rules of every reader apply: BOM, CRLF, UTF-8, binary and gzip data, a directory
// or a missing file given as the input.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace assay::core {

// Parses the file. A syntax error is a ParseError "not valid JSON: ..." at its line and
// column; an empty file is one too ("empty file, expected a JSON document"), and so is a document
// larger than LineReader::kDefaultMaxLineBytes, found while it is read.
nlohmann::json read_json_file(const std::string& path);

}  // namespace assay::core
