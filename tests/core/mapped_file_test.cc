#include "core/mapped_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::testing::HasSubstr;

TEST(MappedFile, BoundsAreCheckedBeforeAnyRead) {
  assay::testing::TempDir dir;
  const MappedFile f = MappedFile::open(dir.write("ten.bin", "0123456789"));
  EXPECT_EQ(f.size(), 10u);
  EXPECT_EQ(std::string(f.at(2, 3, "x"), 3), "234");
  EXPECT_NO_THROW(f.at(10, 0, "nothing"));
  try {
    f.at(8, 3, "the row of 'king'");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ten.bin at byte 8"));
    EXPECT_THAT(e.what(), HasSubstr("the row of 'king': needs 3 bytes, the file ends at 10"));
  }
  // Offsets near 2^64 must not wrap around the check.
  EXPECT_THROW(f.at(~0ull, 2, "x"), ParseError);
  EXPECT_THROW(f.at(5, ~0ull - 2, "x"), ParseError);
}

TEST(MappedFile, CursorTakesInOrderAndStopsAtTheEnd) {
  assay::testing::TempDir dir;
  const MappedFile f = MappedFile::open(dir.write("c.bin", "ab\ncd"));
  ByteCursor c(f);
  EXPECT_EQ(c.get(), 'a');
  EXPECT_EQ(c.peek(), 'b');
  EXPECT_EQ(std::string(c.take(2, "x"), 2), "b\n");
  EXPECT_EQ(c.remaining(), 2u);
  EXPECT_THROW(c.take(3, "tail"), ParseError);
  EXPECT_EQ(c.offset(), 3u);  // a failed take does not move
  c.take(2, "tail");
  EXPECT_EQ(c.get(), -1);
}

TEST(MappedFile, EmptyDirectoryAndMissingFiles) {
  assay::testing::TempDir dir;
  const MappedFile empty = MappedFile::open(dir.write("empty.bin", ""));
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_THROW(empty.at(0, 1, "x"), ParseError);
  try {
    MappedFile::open(dir.path().string());
    FAIL();
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory, expected a file"));
  }
  EXPECT_THROW(MappedFile::open(dir.file("absent")), IoError);
}

TEST(MappedFile, StorageOutlivesTheObject) {
  assay::testing::TempDir dir;
  std::shared_ptr<const void> keep;
  const char* data = nullptr;
  {
    const MappedFile f = MappedFile::open(dir.write("k.bin", "keep me"));
    keep = f.storage();
    data = f.data();
  }
  EXPECT_EQ(std::string(data, 7), "keep me");
}

}  // namespace
}  // namespace assay::core
