#include "core/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>

#include "core/error.h"

namespace assay::core {
namespace {

[[noreturn]] void throw_open_error(const std::string& path, int err) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw IoError(SourceLocation{path}, "is a directory, expected a file");
  }
  throw IoError(SourceLocation{path},
                std::string("cannot open for reading: ") + std::strerror(err));
}

// A descriptor open for reading on `path`, which must not be a directory.
int open_for_reading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_open_error(path, errno);
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw IoError(SourceLocation{path}, "is a directory, expected a file");
  }
  return fd;
}

class FdSource final : public ByteSource {
 public:
  FdSource(int fd, std::string name, bool owned)
      : ByteSource(std::move(name)), fd_(fd), owned_(owned) {}
  ~FdSource() override {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  std::size_t read(char* buffer, std::size_t n) override {
    for (;;) {
      const ssize_t got = ::read(fd_, buffer, n);
      if (got >= 0) {
        offset_ += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno == EINTR) continue;
      const int err = errno;
      if (err == EISDIR) throw IoError(SourceLocation{name()}, "is a directory, expected a file");
      throw IoError(SourceLocation{name(), 0, 0, offset_},
                    std::string("read error: ") + std::strerror(err));
    }
  }

 private:
  int fd_;
  bool owned_;
  std::uint64_t offset_ = 0;
};

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(const std::string& path) : ByteSource(path) {
    const int fd = open_for_reading(path);
    gz_ = gzdopen(fd, "rb");
    if (!gz_) {
      ::close(fd);
      throw IoError(SourceLocation{path}, "cannot open gzip stream");
    }
  }
  ~GzipSource() override { gzclose(gz_); }
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  bool raw() const override { return false; }

  std::size_t read(char* buffer, std::size_t n) override {
    const unsigned ask = n > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<unsigned>(n);
    const int got = gzread(gz_, buffer, ask);
    if (got < 0) {
      int code = 0;
      const char* msg = gzerror(gz_, &code);
      throw ParseError(SourceLocation{name()},
                       std::string("corrupt gzip data: ") + (msg && *msg ? msg : "unknown error"));
    }
    if (got == 0) {
      int code = 0;
      gzerror(gz_, &code);
      if (code != Z_OK && code != Z_STREAM_END) {
        throw ParseError(SourceLocation{name()}, "truncated gzip data");
      }
    }
    return static_cast<std::size_t>(got);
  }

 private:
  gzFile gz_ = nullptr;
};

}  // namespace

std::unique_ptr<ByteSource> open_file_source(const std::string& path) {
  if (path == "-") return std::make_unique<FdSource>(STDIN_FILENO, "-", false);
  return std::make_unique<FdSource>(open_for_reading(path), path, true);
}

std::unique_ptr<ByteSource> fd_source(int fd, std::string name, bool owned) {
  return std::make_unique<FdSource>(fd, std::move(name), owned);
}

std::unique_ptr<ByteSource> open_gzip_source(const std::string& path) {
  return std::make_unique<GzipSource>(path);
}

bool looks_gzipped(const std::string& path) {
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) return true;
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[2] = {0, 0};
  in.read(reinterpret_cast<char*>(magic), 2);
  return in.gcount() == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

std::unique_ptr<ByteSource> open_maybe_gzipped(const std::string& path) {
  if (path != "-" && looks_gzipped(path)) return open_gzip_source(path);
  return open_file_source(path);
}

}  // namespace assay::core
