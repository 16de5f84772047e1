#include "core/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace assay::core {

MappedFile MappedFile::open(const std::string& path, MapOptions options) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw IoError(SourceLocation{path}, "is a directory, expected a file");
    throw IoError(SourceLocation{path},
                  std::string("cannot open for reading: ") + std::strerror(err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IoError(SourceLocation{path}, std::string("cannot stat: ") + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IoError(SourceLocation{path},
                  S_ISDIR(st.st_mode) ? "is a directory, expected a file" : "not a regular file");
  }
  MappedFile f;
  f.path_ = path;
  f.size_ = static_cast<std::uint64_t>(st.st_size);
  if (f.size_ == 0) {
    ::close(fd);
    return f;
  }
  const int flags = MAP_PRIVATE | (options.populate ? MAP_POPULATE : 0);
  void* p = ::mmap(nullptr, f.size_, PROT_READ, flags, fd, 0);
  const int err = errno;
  ::close(fd);
  if (p == MAP_FAILED)
    throw IoError(SourceLocation{path}, std::string("cannot map: ") + std::strerror(err));
  const std::uint64_t size = f.size_;
  f.storage_ = std::shared_ptr<const void>(
      p, [size](const void* q) { ::munmap(const_cast<void*>(q), size); });
  f.data_ = static_cast<const char*>(p);
  return f;
}

const char* MappedFile::at(std::uint64_t offset, std::uint64_t n, std::string_view what) const {
  if (offset > size_ || n > size_ - offset) {
    throw ParseError(SourceLocation{path_, 0, 0, offset},
                     std::string(what) + ": needs " + std::to_string(n) +
                         " bytes, the file ends at " + std::to_string(size_));
  }
  return data_ + offset;
}

}  // namespace assay::core
