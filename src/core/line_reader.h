// LineReader: the one text-input layer. Every text parser (CSV, JSON lines, ARPA, ...) reads
// through it, so every reader counts lines alike and accepts or rejects the same text: it reads
// any ByteSource (a file, "-" for stdin, a pipe, a gzip stream), accepts LF and CRLF endings (the
// CR is removed), drops a UTF-8 byte-order mark, rejects gzip data where plain text was expected
// (with a hint to decompress), NUL bytes, and invalid UTF-8 ("file:line:column: invalid UTF-8
// (byte 0xE9)", the column in characters). Latin-1 input: wrap the source in latin1_source()
// (core/latin1_source.h), which decodes it to UTF-8.
//
// Memory stays bounded whatever the input is (a device such as /dev/zero, a pipe that never
// ends a line, a file of one huge line): a NUL byte is reported as soon as it is read, and a line
// longer than max_line_bytes() as soon as its bytes pass the limit, before the rest is read.
// Each byte is scanned once, so a long line costs linear time.
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

  // The longest line accepted, in bytes without its terminator; a longer one is a ParseError at
  // its line ("a line longer than the limit of N bytes"). The default bounds every file a
  // parser reads; readers of user texts set the user's limit.
  static constexpr std::size_t kDefaultMaxLineBytes = std::size_t{256} << 20;
  void set_max_line_bytes(std::size_t n) { max_line_bytes_ = n; }
  std::size_t max_line_bytes() const { return max_line_bytes_; }

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
  std::size_t begin_ = 0;    // start of unconsumed data in buffer_
  std::size_t scanned_ = 0;  // buffer_ before this holds no '\n' after begin_
  bool eof_ = false;
  std::uint64_t line_number_ = 0;
  std::uint64_t bytes_read_ = 0;
  std::size_t max_line_bytes_ = kDefaultMaxLineBytes;
};

}  // namespace assay::core
