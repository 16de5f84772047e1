#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace assay::core {

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), temp_path_(path_ + ".tmp-" + std::to_string(::getpid())) {
  out_.open(temp_path_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    throw IoError(SourceLocation{path_},
                  std::string("cannot create output file: ") + std::strerror(errno));
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) {
    out_.close();
    std::remove(temp_path_.c_str());
  }
}

void AtomicFileWriter::commit() {
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok) throw IoError(SourceLocation{path_}, "write failed (disk full?)");
  const int fd = ::open(temp_path_.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw IoError(SourceLocation{path_},
                  std::string("cannot move output into place: ") + std::strerror(errno));
  }
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFileWriter writer(path);
  writer.stream() << content;
  writer.commit();
}

}  // namespace assay::core
