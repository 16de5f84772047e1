#include "core/line_reader.h"

#include <cstdio>
#include <cstring>

#include "core/utf8.h"

namespace assay::core {
namespace {
constexpr std::size_t kChunk = 1 << 16;
constexpr const char* kNul = "binary data (a NUL byte) where a text file was expected";
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
    scanned_ -= begin_;
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
    if (buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0) begin_ = scanned_ = 3;  // byte-order mark
  }
  bytes_read_ += got;
  return got > 0;
}

bool LineReader::next(std::string_view& out) {
  std::size_t nl = std::string::npos;
  for (;;) {
    // Only the bytes read since the last look are scanned.
    const char* const data = buffer_.data();
    if (const void* p = std::memchr(data + scanned_, '\n', buffer_.size() - scanned_)) {
      nl = static_cast<std::size_t>(static_cast<const char*>(p) - data);
      break;
    }
    // No line end yet: the line read so far is checked now, so that neither a NUL nor a line
    // over the limit makes the reader wait for more.
    const std::size_t pending = buffer_.size() - begin_;
    if (const void* p = std::memchr(data + scanned_, '\0', buffer_.size() - scanned_)) {
      throw ParseError(
          SourceLocation{
              path_, line_number_ + 1,
              static_cast<std::uint64_t>(static_cast<const char*>(p) - (data + begin_)) + 1,
              std::nullopt},
          kNul);
    }
    if (pending > 0 && pending - 1 > max_line_bytes_) {  // - 1: a CR may end it
      throw ParseError(
          SourceLocation{path_, line_number_ + 1, 0, std::nullopt},
          "a line longer than the limit of " + std::to_string(max_line_bytes_) + " bytes");
    }
    scanned_ = buffer_.size();
    if (eof_) {
      if (pending == 0) return false;
      break;
    }
    fill();
  }
  const std::size_t end = nl == std::string::npos ? buffer_.size() : nl;
  std::string_view line(buffer_.data() + begin_, end - begin_);
  begin_ = scanned_ = nl == std::string::npos ? buffer_.size() : nl + 1;
  ++line_number_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > max_line_bytes_) {
    throw ParseError(location(), "a line of " + std::to_string(line.size()) +
                                     " bytes is longer than the limit of " +
                                     std::to_string(max_line_bytes_) + " bytes");
  }
  if (const void* nul = std::memchr(line.data(), '\0', line.size())) {
    throw ParseError(
        location(static_cast<std::uint64_t>(static_cast<const char*>(nul) - line.data()) + 1),
        kNul);
  }
  if (const auto bad = find_invalid_utf8(line)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(line[*bad]));
    throw ParseError(location(utf8_column(line, *bad) + 1),
                     std::string("invalid UTF-8 (byte ") + byte + "); expected UTF-8 text");
  }
  out = line;
  return true;
}

}  // namespace assay::core
