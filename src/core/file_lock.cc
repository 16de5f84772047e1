#include "core/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace assay::core {

FileLock::FileLock(const std::string& guarded_path, Mode mode, const std::string& in_use_hint)
    : mode_(mode), lock_path_(guarded_path + ".lock") {
  const int operation = (mode == Mode::kExclusive ? LOCK_EX : LOCK_SH) | LOCK_NB;
  // The holder that removes the file does so while it still holds the lock; a lock taken on a
  // removed file is dropped and taken again on the file now at the path.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      const int err = errno;
      if (mode == Mode::kShared && (err == EROFS || err == EACCES || err == EPERM)) {
        lock_path_.clear();
        return;
      }
      throw IoError(SourceLocation(lock_path_),
                    std::string("cannot create the lock file: ") + std::strerror(err));
    }
    if (::flock(fd, operation) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) {
        throw UsageError(SourceLocation(guarded_path),
                         std::string(mode == Mode::kExclusive
                                         ? "this store is in use by another process"
                                         : "this store is being written by another process") +
                             " (it holds " + lock_path_ + ")" + in_use_hint);
      }
      if (err == EINTR) continue;
      throw IoError(SourceLocation(lock_path_), std::string("cannot lock: ") + std::strerror(err));
    }
    struct stat locked {
    }, now{};
    if (::fstat(fd, &locked) == 0 && ::stat(lock_path_.c_str(), &now) == 0 &&
        locked.st_dev == now.st_dev && locked.st_ino == now.st_ino) {
      fd_ = fd;
      return;
    }
    ::close(fd);  // removed by its last holder between our open and flock: try the new one
  }
  throw IoError(SourceLocation(lock_path_), "cannot lock: the lock file keeps changing");
}

FileLock::~FileLock() {
  release();
}

FileLock::FileLock(FileLock&& other) noexcept
    : fd_(other.fd_), mode_(other.mode_), lock_path_(std::move(other.lock_path_)) {
  other.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    mode_ = other.mode_;
    lock_path_ = std::move(other.lock_path_);
    other.fd_ = -1;
  }
  return *this;
}

void FileLock::release() {
  if (fd_ < 0) return;
  // The last holder removes the file: an exclusive holder is the only one; a shared holder is
  // the last when it can turn its lock exclusive.
  if (mode_ == Mode::kExclusive || ::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
    ::unlink(lock_path_.c_str());
  }
  ::close(fd_);
  fd_ = -1;
}

}  // namespace assay::core
