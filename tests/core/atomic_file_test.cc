#include "core/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

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

TEST(AtomicFile, ReplacesExistingFileAndReportsBadDirectory) {
  assay::testing::TempDir dir;
  const auto path = dir.write("out.txt", "old");
  write_file_atomically(path, "new");
  EXPECT_EQ(assay::testing::read_file(path), "new");
  EXPECT_THROW(AtomicFileWriter(dir.file("missing/dir/x.txt")), IoError);
}

}  // namespace
}  // namespace assay::core
