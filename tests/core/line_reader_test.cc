#include "core/line_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "core/excerpt.h"
#include "core/latin1_source.h"
#include "support/error_message.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using assay::testing::error_message_of;
using ::testing::HasSubstr;

// Reads every line of `r`; returns the error message, or "(no error)".
std::string read_all(LineReader& r) {
  return error_message_of<ParseError>([&] {
    std::string_view line;
    while (r.next(line)) {
    }
  });
}

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

TEST(LineReader, BomCrlfAndUtf8AreOneRuleForEveryReader) {
  assay::testing::TempDir dir;
  LineReader r(dir.write("bom.txt", "\xEF\xBB\xBFh\xC3\xA9llo\r\nw\xC3\xB6rld\r\n"));
  std::string_view line;
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "h\xC3\xA9llo");
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "w\xC3\xB6rld");
  EXPECT_FALSE(r.next(line));
}

TEST(LineReader, InvalidUtf8IsRejectedWithLineAndCharacterColumn) {
  assay::testing::TempDir dir;
  // Line 2: 'é' (2 bytes) then an invalid 0xFF at character column 3.
  LineReader r(dir.write("bad.txt",
                         "ok\n\xC3\xA9"
                         "a\xFF\n"));
  std::string_view line;
  ASSERT_TRUE(r.next(line));
  try {
    r.next(line);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad.txt:2:3: invalid UTF-8 (byte 0xFF)"));
  }
  // Overlong forms and surrogates too.
  for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "ab\xE2\x82"}) {
    LineReader b(dir.write("b.txt", std::string(bad) + "\n"));
    EXPECT_THROW(b.next(line), ParseError) << bad;
  }
}

TEST(LineReader, Latin1IsDecoded) {
  assay::testing::TempDir dir;
  LineReader r(latin1_source(open_file_source(dir.write("l1.txt",
                                                        "\xEF\xBB\xBF"
                                                        "caf\xE9\r\n"))));
  std::string_view line;
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "caf\xC3\xA9");
}

TEST(LineReader, ErrorsQuoteAShortExcerptOnly) {
  // Error cuts any detail to kMaxErrorDetail bytes.
  const std::string huge(10'000'000, 'x');
  const ParseError e(SourceLocation{"f.txt", 3}, "expected a number, got '" + huge + "'");
  EXPECT_LT(std::string(e.what()).size(), kMaxErrorDetail + 100);
  EXPECT_THAT(e.what(), HasSubstr("f.txt:3: expected a number, got 'xxx"));
  EXPECT_EQ(excerpt("short"), "short");
  EXPECT_EQ(excerpt(std::string(100, 'a'), 10), "aaaaaaaaaa...");
  // Never cuts inside a UTF-8 character.
  EXPECT_EQ(excerpt("aaaaaaaaa\xC3\xA9", 10), "aaaaaaaaa...");
}

TEST(LineReader, MissingFileIsIoError) {
  try {
    LineReader r("/nonexistent/assay/file.txt");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/assay/file.txt: cannot open for reading"));
  }
}

// A device that never ends: the first NUL stops the read (an unbounded reader would grow
// until memory runs out and this test would never end).
TEST(LineReader, NulOfAnEndlessDeviceStopsTheReadAtOnce) {
  LineReader r("/dev/zero");
  EXPECT_THAT(read_all(r),
              HasSubstr("/dev/zero:1:1: binary data (a NUL byte) where a text file was expected"));
  // A NUL in a line that is not ended yet, after whole lines: its line and column.
  assay::testing::TempDir dir;
  LineReader tail(dir.write("t.txt", std::string("ab\ncd\0e", 8)));
  EXPECT_THAT(read_all(tail), HasSubstr("t.txt:2:3: binary data"));
}

// A pipe that never ends its line: the reader stops once the limit is passed and has taken
// from the pipe no more than the limit and a buffer or two.
TEST(LineReader, OverLongLineOfAnEndlessPipeStopsAtTheLimit) {
  ::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::atomic<std::size_t> written{0};
  std::thread writer([&] {
    const std::string head = "first line\n";
    ASSERT_EQ(::write(fds[1], head.data(), head.size()), static_cast<ssize_t>(head.size()));
    const std::string chunk(4096, 'a');
    while (::write(fds[1], chunk.data(), chunk.size()) > 0) written += chunk.size();
    ::close(fds[1]);
  });
  constexpr std::size_t kLimit = 1 << 20;
  std::string message;
  {
    LineReader r(fd_source(fds[0], "pipe", true));
    r.set_max_line_bytes(kLimit);
    message = read_all(r);
  }  // closes the pipe: the writer's next write fails
  writer.join();
  EXPECT_THAT(message, HasSubstr("pipe:2: a line longer than the limit of 1048576 bytes"));
  EXPECT_LT(written.load(), kLimit + (std::size_t{1} << 20));
}

TEST(LineReader, LineLimitCountsBytesWithoutTheTerminator) {
  assay::testing::TempDir dir;
  const std::string ten(10, 'x');
  LineReader ok(dir.write("ok.txt", ten + "\r\n" + ten + "\n" + ten));
  ok.set_max_line_bytes(10);
  EXPECT_EQ(read_all(ok), "(no error)");
  EXPECT_EQ(ok.line_number(), 3u);
  LineReader ended(dir.write("ended.txt", "ok\n" + ten + "x\n"));
  ended.set_max_line_bytes(10);
  EXPECT_THAT(read_all(ended),
              HasSubstr("ended.txt:2: a line of 11 bytes is longer than the limit of 10 bytes"));
  LineReader last(dir.write("last.txt", ten + "x"));  // the last line, without a newline
  last.set_max_line_bytes(10);
  EXPECT_THAT(read_all(last), HasSubstr("last.txt:1: a line of 11 bytes is longer"));
  // Every file is bounded by default.
  EXPECT_EQ(LineReader(dir.file("ok.txt")).max_line_bytes(), LineReader::kDefaultMaxLineBytes);
}

}  // namespace
}  // namespace assay::core
