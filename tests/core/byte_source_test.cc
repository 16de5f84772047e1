#include "core/byte_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <thread>

#include "core/error.h"
#include "core/line_reader.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::testing::HasSubstr;

void write_gzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
}

std::vector<std::string> lines_of(LineReader& r) {
  std::vector<std::string> out;
  std::string_view line;
  while (r.next(line)) out.emplace_back(line);
  return out;
}

TEST(ByteSource, GzipIsInflatedAsItIsRead) {
  assay::testing::TempDir dir;
  std::string text;
  for (int i = 0; i < 50000; ++i) text += "line " + std::to_string(i) + "\r\n";
  const std::string gz = dir.file("lines.txt.gz");
  write_gzip(gz, text);
  EXPECT_TRUE(looks_gzipped(gz));
  LineReader r(open_maybe_gzipped(gz));
  const auto got = lines_of(r);
  ASSERT_EQ(got.size(), 50000u);
  EXPECT_EQ(got[49999], "line 49999");
  EXPECT_EQ(r.path(), gz);
}

TEST(ByteSource, TruncatedAndCorruptGzipAreNamed) {
  assay::testing::TempDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "row " + std::to_string(i * 7919) + "\n";
  const std::string gz = dir.file("t.gz");
  write_gzip(gz, text);
  std::string bytes = assay::testing::read_file(gz);
  const std::string truncated = dir.write("truncated.gz", bytes.substr(0, bytes.size() / 2));
  LineReader t(open_maybe_gzipped(truncated));
  try {
    lines_of(t);
    FAIL() << "truncated gzip accepted";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("truncated.gz"));
    EXPECT_THAT(e.what(), HasSubstr("gzip data"));
  }
  bytes[bytes.size() / 3] ^= 0x55;
  bytes[bytes.size() / 3 + 1] ^= 0x55;
  const std::string corrupt = dir.write("corrupt.gz", bytes);
  LineReader c(open_maybe_gzipped(corrupt));
  EXPECT_THROW(lines_of(c), ParseError);
}

TEST(ByteSource, PipeDescriptorDeliversEverything) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([w = fds[1]] {
    // Written one byte at a time: the reader still sees the byte-order mark and CRLF rule.
    const std::string text =
        "\xEF\xBB\xBF"
        "alpha\r\nbeta\n";
    for (char ch : text) {
      if (::write(w, &ch, 1) != 1) break;
    }
    ::close(w);
  });
  LineReader r(fd_source(fds[0], "child stdout", true));
  const auto got = lines_of(r);
  writer.join();
  EXPECT_EQ(got, (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(r.path(), "child stdout");
}

TEST(ByteSource, DirectoryAndMissingFileAreIoErrors) {
  assay::testing::TempDir dir;
  try {
    open_file_source(dir.path().string());
    FAIL();
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory, expected a file"));
  }
  try {
    open_maybe_gzipped(dir.file("absent.txt"));
    FAIL();
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("absent.txt"));
  }
}

TEST(LineReader, DropsTheUtf8ByteOrderMarkOnly) {
  assay::testing::TempDir dir;
  LineReader r(dir.write("bom.csv", "\xEF\xBB\xBFid,text\n\xEF\xBB\xBFkept\n"));
  const auto got = lines_of(r);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], "id,text");
  EXPECT_EQ(got[1], "\xEF\xBB\xBFkept");  // only the stream's first three bytes are a BOM
  LineReader short_file(dir.write("ab.txt", "ab"));
  EXPECT_EQ(lines_of(short_file), (std::vector<std::string>{"ab"}));
}

}  // namespace
}  // namespace assay::core
