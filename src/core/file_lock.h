// FileLock: an advisory lock that keeps two processes from writing one store at once. It locks
// "<path>.lock" beside the guarded file (flock), not the file itself: SQLite keeps its own POSIX
// locks on a database, and a second descriptor on the database file would drop them when it
// closes. The kernel releases the lock when the process ends, kill -9 included, so a crashed
// run never leaves a store locked.
//
// Exclusive: one writer. Shared: readers that must not see a store being written (merging a
// shard's store while that shard still runs), any number at once. The lock file is removed by
// the last holder; taking the lock checks that the file locked is still the one at the path,
// so removal never lets two holders in.
#pragma once

#include <string>

namespace assay::core {

class FileLock {
 public:
  enum class Mode { kExclusive, kShared };

  FileLock() = default;
  // Takes the lock on `guarded_path` + ".lock" without waiting. Throws core::UsageError naming
  // the guarded file when another process holds a conflicting lock (`in_use_hint` is appended
  // to the message, e.g. how to tell what holds it), core::IoError when the lock file cannot be
  // created. A shared lock in a directory where no lock file can be made (read-only media) is
  // taken as granted: no writer can be working there either.
  FileLock(const std::string& guarded_path, Mode mode, const std::string& in_use_hint = "");
  ~FileLock();
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return fd_ >= 0; }
  const std::string& lock_path() const { return lock_path_; }
  // Releases early (the destructor does it otherwise).
  void release();

 private:
  int fd_ = -1;
  Mode mode_ = Mode::kExclusive;
  std::string lock_path_;
};

}  // namespace assay::core
