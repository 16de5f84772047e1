// LineReader is the one place that counts lines: every text parser (CSV, JSON lines, ARPA, ...)
// reads through it, so every error message gets the same 1-based line numbers.
//
// It reads from any ByteSource (a file, standard input as "-", a pipe, a gzip stream), accepts
// LF and CRLF endings (the CR is removed), drops a UTF-8 byte-order mark at the start, and
// rejects content that is plainly not text: gzip data where plain text was expected (with a
// hint to decompress) and NUL bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/byte_source.h"
#include "core/error.h"

namespace assay::core {

class LineReader {
 public:
  // Opens `path` ("-" for stdin) as plain text. Throws IoError when it cannot be opened.
  explicit LineReader(std::string path);
  // Reads `source`; messages name source->name().
  explicit LineReader(std::unique_ptr<ByteSource> source);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Reads the next line into `line` (without its terminator); false at end of input. The view
  // stays valid until the next call. Throws ParseError on binary content, IoError on read errors.
  bool next(std::string_view& line);

  // Number of the line last returned (1-based); 0 before the first call.
  std::uint64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }
  // Location of the line last returned, with an optional 1-based column.
  SourceLocation location(std::uint64_t column = 0) const;

 private:
  bool fill();

  std::string path_;
  std::unique_ptr<ByteSource> source_;
  std::string buffer_;
  std::size_t begin_ = 0;  // start of unconsumed data in buffer_
  bool eof_ = false;
  std::string line_;
  std::uint64_t line_number_ = 0;
  std::uint64_t bytes_read_ = 0;
};

}  // namespace assay::core
