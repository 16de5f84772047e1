#include "core/line_reader.h"

#include <cerrno>
#include <cstring>

namespace assay::core {
namespace {
constexpr std::size_t kChunk = 1 << 16;
}  // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    file_ = stdin;
  } else {
    file_ = std::fopen(path_.c_str(), "rb");
    if (!file_) {
      throw IoError(SourceLocation{path_},
                    std::string("cannot open for reading: ") + std::strerror(errno));
    }
    owns_file_ = true;
  }
}

LineReader::~LineReader() {
  if (owns_file_ && file_) std::fclose(file_);
}

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
  const std::size_t got = std::fread(buffer_.data() + old_size, 1, kChunk, file_);
  buffer_.resize(old_size + got);
  if (got < kChunk) {
    if (std::ferror(file_)) {
      throw IoError(SourceLocation{path_, 0, 0, bytes_read_ + got},
                    std::string("read error: ") + std::strerror(errno));
    }
    eof_ = true;
  }
  if (bytes_read_ == 0 && buffer_.size() >= 2 && static_cast<unsigned char>(buffer_[0]) == 0x1f &&
      static_cast<unsigned char>(buffer_[1]) == 0x8b) {
    throw ParseError(SourceLocation{path_, 1, 0, std::nullopt},
                     "this is gzip-compressed data, expected plain text; decompress it first "
                     "(gunzip)");
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
      line = line_;
      return true;
    }
    fill();
  }
}

}  // namespace assay::core
