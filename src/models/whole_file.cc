#include "models/whole_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/error.h"

namespace assay::models {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

std::string read_whole_file(const std::string& path, std::size_t max_bytes) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file)
    throw core::IoError(core::SourceLocation(path),
                        std::string("cannot open: ") + std::strerror(errno));
  std::string out;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    if (const void* nul = std::memchr(buffer, '\0', n)) {
      const std::size_t at =
          out.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - buffer);
      throw core::ParseError(core::SourceLocation(path, 0, 0, at),
                             "binary data (a NUL byte) where a JSON text was expected");
    }
    if (n > max_bytes - out.size()) {
      throw core::ParseError(core::SourceLocation(path),
                             "larger than the limit of " + std::to_string(max_bytes) + " bytes");
    }
    out.append(buffer, n);
  }
  if (std::ferror(file.get())) throw core::IoError(core::SourceLocation(path), "read error");
  return out;
}

}  // namespace assay::models
