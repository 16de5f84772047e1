#include "core/csv_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_message.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::testing::HasSubstr;

TEST(CsvReader, QuotesDelimitersNewlinesAndCrlf) {
  assay::testing::TempDir dir;
  const auto path = dir.write("a.csv",
                              "name,text,score\r\n"
                              "a,\"hello, world\",1.5\r\n"
                              "b,\"say \"\"hi\"\"\",2\r\n"
                              "\r\n"
                              "c,\"two\nlines\",3\n"
                              "d,,4");
  CsvReader csv(path);
  EXPECT_EQ(csv.column("score"), 2u);
  ASSERT_TRUE(csv.next());
  EXPECT_EQ(csv.field(1), "hello, world");
  EXPECT_EQ(csv.record_line(), 2u);
  ASSERT_TRUE(csv.next());
  EXPECT_EQ(csv.field(1), "say \"hi\"");
  ASSERT_TRUE(csv.next());
  EXPECT_EQ(csv.field(1), "two\nlines");
  EXPECT_EQ(csv.record_line(), 5u);
  ASSERT_TRUE(csv.next());
  EXPECT_EQ(csv.field(1), "");
  EXPECT_EQ(csv.number(2, "score"), 4.0);
  EXPECT_EQ(csv.record_line(), 7u);  // line numbers count the embedded newline
  EXPECT_FALSE(csv.next());
}

TEST(CsvReader, TabDelimitedWithoutHeader) {
  assay::testing::TempDir dir;
  const auto path = dir.write("a.tsv", "1\t2\t3\n4\t5\t6\n");
  CsvOptions o;
  o.delimiter = '\t';
  o.has_header = false;
  CsvReader csv(path, o);
  ASSERT_TRUE(csv.next());
  EXPECT_EQ(csv.fields().size(), 3u);
  ASSERT_TRUE(csv.next());
  EXPECT_EQ(csv.field(2), "6");
}

TEST(CsvReader, WrongFieldCountNamesFileAndLine) {
  assay::testing::TempDir dir;
  const auto path = dir.write("bad.csv", "a,b\n1,2\n3\n");
  CsvReader csv(path);
  ASSERT_TRUE(csv.next());
  EXPECT_THAT(assay::testing::error_message_of([&] { csv.next(); }),
              HasSubstr("bad.csv:3: expected 2 fields, got 1"));
}

TEST(CsvReader, MissingColumnListsTheKnownOnes) {
  assay::testing::TempDir dir;
  const auto path = dir.write("h.csv", "alpha,beta\n1,2\n");
  CsvReader csv(path);
  EXPECT_THAT(assay::testing::error_message_of([&] { csv.column("gamma"); }),
              HasSubstr("h.csv:1: expected a column named 'gamma' in the header; columns are: "
                        "alpha, beta"));
}

TEST(CsvReader, ColumnNamedTwiceIsAmbiguousWhenLookedUp) {
  assay::testing::TempDir dir;
  const auto path = dir.write("h.csv", "text,label,text\na,pos,b\n");
  CsvReader csv(path);
  EXPECT_EQ(csv.column("label"), 1u);  // the other columns are read as before
  EXPECT_THAT(assay::testing::error_message_of([&] { csv.column("text"); }),
              HasSubstr("h.csv:1: the header names the column 'text' twice (columns 1 and 3)"));
}

TEST(CsvReader, NonNumericFieldNamesLineAndColumn) {
  assay::testing::TempDir dir;
  const auto path = dir.write("n.csv", "x,y\n1,2\n3,abc\n");
  CsvReader csv(path);
  ASSERT_TRUE(csv.next());
  ASSERT_TRUE(csv.next());
  EXPECT_THAT(assay::testing::error_message_of([&] { csv.number(1, "y"); }),
              HasSubstr("n.csv:3:3: expected a number for y, got 'abc'"));
}

TEST(CsvReader, InvalidUtf8AndLatin1Option) {
  assay::testing::TempDir dir;
  const auto path = dir.write("l.csv", "name\ncaf\xe9\n");
  {
    CsvReader csv(path);
    EXPECT_THAT(assay::testing::error_message_of([&] { csv.next(); }),
                HasSubstr("l.csv:2:4: invalid UTF-8"));
  }
  CsvOptions o;
  o.encoding = TextEncoding::kLatin1;
  CsvReader csv(path, o);
  ASSERT_TRUE(csv.next());
  EXPECT_EQ(csv.field(0), "caf\xc3\xa9");
}

TEST(CsvReader, EmptyFileAndUnterminatedQuote) {
  assay::testing::TempDir dir;
  EXPECT_THAT(assay::testing::error_message_of([&] { CsvReader csv(dir.write("e.csv", "")); }),
              HasSubstr("e.csv:1: empty file, expected a header row"));
  const auto path = dir.write("q.csv", "a,b\n1,\"open\n");
  CsvReader csv(path);
  EXPECT_THAT(assay::testing::error_message_of([&] { csv.next(); }),
              HasSubstr("q.csv:2:3: unterminated quoted field"));
}

// A quote left open makes every following line part of one field: the record stops at its
// limit, long before the end of the file, and names where the field began.
TEST(CsvReader, RecordOverTheLimitStopsTheReadAndNamesTheOpenQuote) {
  assay::testing::TempDir dir;
  std::string rows;
  for (int i = 0; i < 20000; ++i) rows += std::string(100, 'x') + "\n";
  CsvOptions options;
  options.max_record_bytes = 4096;
  CsvReader csv(dir.write("q.csv", "a,b\n1,\"open\n" + rows), options);
  EXPECT_THAT(assay::testing::error_message_of([&] { csv.next(); }),
              HasSubstr("q.csv:2: a record longer than the limit of 4096 bytes (its quoted field "
                        "at line 2, column 3 may lack its closing '\"')"));
  CsvReader line(dir.write("long.csv", "a,b\n1," + std::string(5000, 'y') + "\n"), options);
  EXPECT_THAT(assay::testing::error_message_of([&] { line.next(); }),
              HasSubstr("long.csv:2: a line of 5002 bytes is longer than the limit of 4096 bytes"));
}

TEST(CsvReader, StrayQuoteIsAnError) {
  assay::testing::TempDir dir;
  CsvReader csv(dir.write("s.csv", "a\nab\"c\n"));
  EXPECT_THAT(assay::testing::error_message_of([&] { csv.next(); }),
              HasSubstr("s.csv:2:3: unexpected '\"'"));
  CsvOptions o;
  o.quoting = false;
  CsvReader plain(dir.write("p.csv", "a\nab\"c\n"), o);
  ASSERT_TRUE(plain.next());
  EXPECT_EQ(plain.field(0), "ab\"c");
}

}  // namespace
}  // namespace assay::core
