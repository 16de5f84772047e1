#include "core/line_reader.h"

#include <cstdio>

#include "core/utf8.h"

namespace assay::core {
namespace {
constexpr std::size_t kChunk = 1 << 16;
}  // namespace

LineReader::LineReader(std::string path) : LineReader(open_file_source(path)) {}

LineReader::LineReader(std::unique_ptr<ByteSource> source)
    : path_(source->name()), source_(std::move(source)) {}

LineReader::~LineReader() = default;

SourceLocation LineReader::location(std::uint64_t column) const {
  return SourceLocation{path_, line_number_, column, std::nullopt};
}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    buffer_.erase(0, begin_);
    begin_ = 0;
  }
  const std::size_t old_size = buffer_.size();
  buffer_.resize(old_size + kChunk);
  std::size_t got = source_->read(buffer_.data() + old_size, kChunk);
  // The start of the stream is checked on its first three bytes (a pipe may deliver fewer).
  while (bytes_read_ == 0 && got > 0 && got < 3) {
    buffer_.resize(old_size + got + kChunk);
    const std::size_t more = source_->read(buffer_.data() + old_size + got, kChunk);
    if (more == 0) break;
    got += more;
  }
  buffer_.resize(old_size + got);
  if (got == 0) eof_ = true;
  if (bytes_read_ == 0 && got > 0) {
    if (source_->raw() && buffer_.size() >= 2 && static_cast<unsigned char>(buffer_[0]) == 0x1f &&
        static_cast<unsigned char>(buffer_[1]) == 0x8b) {
      throw ParseError(SourceLocation{path_, 1, 0, std::nullopt},
                       "this is gzip-compressed data, expected plain text; decompress it first "
                       "(gunzip)");
    }
    if (buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0) begin_ = 3;  // UTF-8 byte-order mark
  }
  bytes_read_ += got;
  return got > 0;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const std::size_t nl = buffer_.find('\n', begin_);
    if (nl != std::string::npos || eof_) {
      if (nl == std::string::npos && begin_ >= buffer_.size()) return false;
      const std::size_t end = nl == std::string::npos ? buffer_.size() : nl;
      line_.assign(buffer_, begin_, end - begin_);
      begin_ = nl == std::string::npos ? buffer_.size() : nl + 1;
      ++line_number_;
      if (!line_.empty() && line_.back() == '\r') line_.pop_back();
      const std::size_t nul = line_.find('\0');
      if (nul != std::string::npos) {
        throw ParseError(location(nul + 1),
                         "binary data (a NUL byte) where a text file was expected");
      }
      if (const auto bad = find_invalid_utf8(line_)) {
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(line_[*bad]));
        throw ParseError(location(utf8_column(line_, *bad) + 1),
                         std::string("invalid UTF-8 (byte ") + byte +
                             "); expected UTF-8 text");
      }
      line = line_;
      return true;
    }
    fill();
  }
}

}  // namespace assay::core
