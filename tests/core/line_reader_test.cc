#include "core/line_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::testing::HasSubstr;

TEST(LineReader, CountsLinesAndStripsCr) {
  assay::testing::TempDir dir;
  LineReader r(dir.write("t.txt", "one\r\ntwo\n\nfour"));
  std::string_view line;
  std::vector<std::string> got;
  while (r.next(line)) got.emplace_back(line);
  EXPECT_EQ(got, (std::vector<std::string>{"one", "two", "", "four"}));
  EXPECT_EQ(r.line_number(), 4u);
}

TEST(LineReader, LongLinesAcrossBufferBoundaries) {
  assay::testing::TempDir dir;
  const std::string big(200000, 'x');
  LineReader r(dir.write("big.txt", big + "\nend\n"));
  std::string_view line;
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line.size(), big.size());
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "end");
  EXPECT_FALSE(r.next(line));
}

TEST(LineReader, RejectsBinaryAndGzip) {
  assay::testing::TempDir dir;
  {
    LineReader r(dir.write("bin.dat", std::string("ok\nab\0cd\n", 9)));
    std::string_view line;
    ASSERT_TRUE(r.next(line));
    try {
      r.next(line);
      FAIL();
    } catch (const ParseError& e) {
      EXPECT_THAT(e.what(), HasSubstr("bin.dat:2:3: binary data"));
    }
  }
  LineReader gz(dir.write("x.gz", "\x1f\x8b\x08\x00rest"));
  std::string_view line;
  try {
    gz.next(line);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("gzip-compressed"));
  }
}

TEST(LineReader, MissingFileIsIoError) {
  try {
    LineReader r("/nonexistent/assay/file.txt");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/assay/file.txt: cannot open for reading"));
  }
}

}  // namespace
}  // namespace assay::core
