// ByteSource: a sequential stream of bytes for the streaming readers (LineReader and the
// parsers built on it). One interface for a file, standard input, a file descriptor someone
// else opened (a pipe from a child process) and a gzip-compressed file, so a reader never
// cares where its bytes come from and no thread pumps a pipe to hand them over.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace assay::core {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `n` bytes into `buffer`; returns how many, 0 only at the end of the stream.
  // Throws IoError on a read error and ParseError on corrupt or truncated compressed data,
  // both naming name().
  virtual std::size_t read(char* buffer, std::size_t n) = 0;
  // The name used in messages: the path, "-" for standard input, or what the opener gave.
  const std::string& name() const { return name_; }
  // True when the bytes are the file's own (not decompressed), so readers of text can
  // recognise a compressed file given by mistake.
  virtual bool raw() const { return true; }

 protected:
  explicit ByteSource(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

// `path` as it is on disk; "-" is standard input. Throws IoError when it cannot be opened
// (a directory is reported as such).
std::unique_ptr<ByteSource> open_file_source(const std::string& path);

// An open descriptor (a pipe, a socket); closed by the source when `owned`.
std::unique_ptr<ByteSource> fd_source(int fd, std::string name, bool owned);

// A gzip-compressed file, inflated as it is read (zlib). Throws IoError when it cannot be
// opened; read() throws ParseError "corrupt gzip data" or "truncated gzip data".
std::unique_ptr<ByteSource> open_gzip_source(const std::string& path);

// True when `path` ends in ".gz" or starts with the gzip magic bytes.
bool looks_gzipped(const std::string& path);

// open_gzip_source when looks_gzipped(path), open_file_source otherwise.
std::unique_ptr<ByteSource> open_maybe_gzipped(const std::string& path);

}  // namespace assay::core
