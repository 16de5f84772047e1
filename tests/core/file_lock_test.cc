#include "core/file_lock.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::assay::testing::TempDir;

// A child process that takes the lock, says so on a pipe and waits to be killed.
pid_t hold_in_child(const std::string& path, FileLock::Mode mode) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(ready[0]);
    try {
      FileLock lock(path, mode);
      (void)!::write(ready[1], "1", 1);
      for (;;) ::pause();
    } catch (...) {
      (void)!::write(ready[1], "0", 1);
    }
    ::_exit(0);
  }
  ::close(ready[1]);
  char c = 0;
  const bool ok = ::read(ready[0], &c, 1) == 1 && c == '1';
  ::close(ready[0]);
  if (!ok) {
    ::waitpid(pid, nullptr, 0);
    return -1;
  }
  return pid;
}

void kill_and_wait(pid_t pid) {
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

TEST(FileLock, SecondProcessIsRefusedNamingTheFileUntilTheHolderIsKilled) {
  TempDir dir;
  const std::string store = dir.file("store.sqlite");
  const pid_t holder = hold_in_child(store, FileLock::Mode::kExclusive);
  ASSERT_GT(holder, 0);
  try {
    FileLock again(store, FileLock::Mode::kExclusive, "; try later");
    ADD_FAILURE() << "second writer admitted";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(store), std::string::npos) << what;
    EXPECT_NE(what.find("in use by another process"), std::string::npos) << what;
    EXPECT_NE(what.find("; try later"), std::string::npos) << what;
  }
  EXPECT_THROW(FileLock(store, FileLock::Mode::kShared), UsageError);
  // kill -9 releases the lock: no stale lock after a crash.
  kill_and_wait(holder);
  FileLock now(store, FileLock::Mode::kExclusive);
  EXPECT_TRUE(now.held());
}

TEST(FileLock, SharedHoldersCoexistAndKeepWritersOut) {
  TempDir dir;
  const std::string store = dir.file("s.sqlite");
  const pid_t reader = hold_in_child(store, FileLock::Mode::kShared);
  ASSERT_GT(reader, 0);
  {
    FileLock shared(store, FileLock::Mode::kShared);
    EXPECT_TRUE(shared.held());
    EXPECT_THROW(FileLock(store, FileLock::Mode::kExclusive), UsageError);
  }
  // Our shared lock is gone; the child's still keeps the file and writers out.
  EXPECT_TRUE(std::filesystem::exists(store + ".lock"));
  EXPECT_THROW(FileLock(store, FileLock::Mode::kExclusive), UsageError);
  kill_and_wait(reader);
  FileLock writer(store, FileLock::Mode::kExclusive);
  EXPECT_TRUE(writer.held());
}

TEST(FileLock, LastHolderRemovesTheLockFile) {
  TempDir dir;
  const std::string store = dir.file("s.sqlite");
  {
    FileLock lock(store, FileLock::Mode::kExclusive);
    EXPECT_TRUE(std::filesystem::exists(store + ".lock"));
  }
  EXPECT_FALSE(std::filesystem::exists(store + ".lock"));
  {
    FileLock a(store, FileLock::Mode::kShared);
    FileLock b(store, FileLock::Mode::kShared);
    a.release();
    EXPECT_TRUE(std::filesystem::exists(store + ".lock"));
  }
  EXPECT_FALSE(std::filesystem::exists(store + ".lock"));
}

TEST(FileLock, UnwritableDirectoryIsIoErrorForWriters) {
  TempDir dir;
  EXPECT_THROW(FileLock(dir.file("no/such/dir/s.sqlite"), FileLock::Mode::kExclusive), IoError);
}

}  // namespace
}  // namespace assay::core
