#include "core/atomic_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

// A link or FIFO planted under the temporary file's name is removed, never written through or
// opened; the target gets the content.
TEST(AtomicFile, PlantedTemporaryIsNeitherFollowedNorOpened) {
  assay::testing::TempDir dir;
  const auto path = dir.file("out.txt");
  const auto victim = dir.write("victim.txt", "precious");
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  std::filesystem::create_symlink(victim, temp);
  write_file_atomically(path, "new");
  EXPECT_EQ(assay::testing::read_file(victim), "precious");
  EXPECT_EQ(assay::testing::read_file(path), "new");
  ASSERT_EQ(::mkfifo(temp.c_str(), 0600), 0);
  write_file_atomically(path, "newer");  // opening the FIFO for writing would block
  EXPECT_EQ(assay::testing::read_file(path), "newer");
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(temp)));
}

TEST(AtomicFile, StaleTemporariesOfDeadProcessesAreRemoved) {
  assay::testing::TempDir dir;
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const auto path = dir.file("out.txt");
  const auto stale = dir.write("out.txt.tmp-" + std::to_string(dead), "x");
  const auto other = dir.write("other.txt.tmp-" + std::to_string(dead), "x");  // not this target
  const auto live = dir.write("out.txt.tmp-1", "x");                           // init: alive
  const auto odd = dir.write("out.txt.tmp-abc", "x");
  write_file_atomically(path, "content");
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(other));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(odd));
}

// A write that fails (the file size limit, as a full disk would) is reported, the target is
// left as it was and no temporary file stays.
TEST(AtomicFile, FailedWriteLeavesTheTargetAndNoTemporary) {
  assay::testing::TempDir dir;
  const auto path = dir.write("out.txt", "before");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{1000, 1000};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      AtomicFileWriter w(path);
      w.stream() << std::string(100000, 'x');
      w.commit();
    } catch (const IoError& e) {
      ::_exit(std::string(e.what()).find("write failed") != std::string::npos ? 0 : 2);
    }
    ::_exit(1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(assay::testing::read_file(path), "before");
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST(AtomicFile, NothingVisibleUntilCommit) {
  assay::testing::TempDir dir;
  const auto path = dir.file("out.txt");
  {
    AtomicFileWriter w(path);
    w.stream() << "partial";
    EXPECT_FALSE(std::filesystem::exists(path));
  }  // destroyed without commit
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator{}),
            0);
  write_file_atomically(path, "done\n");
  EXPECT_EQ(assay::testing::read_file(path), "done\n");
}

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                std::filesystem::directory_iterator{}));
}

TEST(AtomicFile, CommitTogetherPutsEveryOutputInPlace) {
  assay::testing::TempDir dir;
  const auto a = dir.write("a.txt", "old a\n"), b = dir.file("b.txt");
  AtomicFileWriter wa(a), wb(b);
  wa.stream() << "new a\n";
  wb.stream() << "new b\n";
  commit_together({&wa, &wb});
  EXPECT_EQ(assay::testing::read_file(a), "new a\n");
  EXPECT_EQ(assay::testing::read_file(b), "new b\n");
  EXPECT_EQ(entries(dir.path()), 2u);  // no temporary or backup file left
}

// The last rename fails (its directory, and the temporary file in it, vanished after the
// writer was made): the first target gets its previous content back, and the second, which did
// not exist, is removed again.
TEST(AtomicFile, CommitTogetherUndoesTheRenamesWhenALaterOneFails) {
  assay::testing::TempDir dir;
  const auto a = dir.write("a.txt", "old a\n"), c = dir.file("c.txt");
  std::filesystem::create_directory(dir.path() / "sub");
  const auto b = dir.file("sub/b.txt");
  {
    AtomicFileWriter wa(a), wc(c), wb(b);
    wa.stream() << "new a\n";
    wc.stream() << "new c\n";
    wb.stream() << "new b\n";
    std::filesystem::remove_all(dir.path() / "sub");
    EXPECT_THROW(commit_together({&wa, &wc, &wb}), IoError);
  }
  EXPECT_EQ(assay::testing::read_file(a), "old a\n");
  EXPECT_FALSE(std::filesystem::exists(c));
  EXPECT_EQ(entries(dir.path()), 1u);  // a.txt: no temporary or backup file left
}

// A target that became a directory cannot be replaced: nothing is renamed.
TEST(AtomicFile, CommitTogetherRenamesNothingWhenATargetIsADirectory) {
  assay::testing::TempDir dir;
  const auto a = dir.write("a.txt", "old a\n"), b = dir.file("b.txt");
  {
    AtomicFileWriter wa(a), wb(b);
    wa.stream() << "new a\n";
    wb.stream() << "new b\n";
    std::filesystem::create_directories(b + "/occupied");
    EXPECT_THROW(commit_together({&wa, &wb}), IoError);
  }
  EXPECT_EQ(assay::testing::read_file(a), "old a\n");
  EXPECT_EQ(entries(dir.path()), 2u);  // a.txt and b.txt/
}

TEST(AtomicFile, ReplacesExistingFileAndReportsBadDirectory) {
  assay::testing::TempDir dir;
  const auto path = dir.write("out.txt", "old");
  write_file_atomically(path, "new");
  EXPECT_EQ(assay::testing::read_file(path), "new");
  EXPECT_THROW(AtomicFileWriter(dir.file("missing/dir/x.txt")), IoError);
}

TEST(AtomicFile, WritesThroughSymbolicLinks) {
  assay::testing::TempDir dir;
  namespace fs = std::filesystem;
  fs::create_directory(dir.path() / "real");
  const auto target = dir.write("real/target.txt", "old");
  fs::create_symlink("real/target.txt", dir.path() / "link.txt");         // relative link
  fs::create_symlink(dir.path() / "link.txt", dir.path() / "link2.txt");  // link to a link
  write_file_atomically(dir.file("link2.txt"), "new");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "link.txt"));
  EXPECT_TRUE(fs::is_symlink(dir.path() / "link2.txt"));
  EXPECT_EQ(assay::testing::read_file(target), "new");
  // A dangling link: the file it names is created, the link stays.
  fs::create_symlink("real/created.txt", dir.path() / "dangling.txt");
  write_file_atomically(dir.file("dangling.txt"), "made");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "dangling.txt"));
  EXPECT_EQ(assay::testing::read_file(dir.file("real/created.txt")), "made");
  // No temporary file anywhere.
  for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
  }
}

TEST(AtomicFile, RefusesDirectoriesDevicesAndLinksToThem) {
  assay::testing::TempDir dir;
  namespace fs = std::filesystem;
  fs::create_directory(dir.path() / "d");
  std::filesystem::create_symlink("/dev/null", dir.path() / "null-link");
  for (const std::string& p : {dir.file("d"), std::string("/dev/null"), dir.file("null-link")}) {
    try {
      AtomicFileWriter w(p);
      ADD_FAILURE() << "accepted " << p;
    } catch (const IoError& e) {
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("it is a "), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(fs::is_symlink(dir.path() / "null-link"));
  EXPECT_TRUE(fs::is_directory(dir.path() / "d"));
  EXPECT_TRUE(fs::is_empty(dir.path() / "d"));
}

}  // namespace
}  // namespace assay::core
