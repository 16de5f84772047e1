// The one reader of texts: plain lines, TSV and CSV by their header, TEXT<TAB>LABEL lines, and
// the format `auto` picks; every bad input names its file and line.
#include "models/text_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace assay::models {
namespace {

using ::testing::HasSubstr;

TextInputOptions table(TextFormat format, const std::string& text, const std::string& label = "") {
  TextInputOptions o;
  o.format = format;
  o.text_column = text;
  o.label_column = label;
  return o;
}

template <class E>
std::string error_of(const std::string& path, const TextInputOptions& o) {
  try {
    read_text_records(path, o);
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error reading " << path;
  return "";
}

TEST(TextInput, LinesKeepEmptyLinesAndHaveNoLabels) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.txt", "The actor left.\r\n\nA man.\n");
  const auto r = read_text_records(p, {});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].text, "The actor left.");
  EXPECT_EQ(r[1].text, "");
  EXPECT_EQ(r[1].location.line, 2u);
  EXPECT_EQ(r[1].location.path, p);
  EXPECT_FALSE(r[0].label.has_value());
}

// SST-2's layout: a header row, then sentence<TAB>label. The header is never a text.
TEST(TextInput, TsvIsReadByItsHeaderWithQuotesAsTheyAre) {
  assay::testing::TempDir dir;
  const auto p = dir.write("dev.tsv", "sentence\tlabel\na \"fine\" film , sadly\t1\nbad\t0\n");
  for (const auto format : {TextFormat::kTsv, TextFormat::kAuto}) {
    const auto r = read_text_records(p, table(format, "sentence", "label"));
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].text, "a \"fine\" film , sadly");
    EXPECT_EQ(*r[0].label, "1");
    EXPECT_EQ(r[1].location.line, 3u);
  }
  // A .tsv file named in a CSV-looking way is still TSV under auto; csv says otherwise.
  EXPECT_EQ(resolved_text_format(p, table(TextFormat::kAuto, "sentence")), TextFormat::kTsv);
  EXPECT_EQ(resolved_text_format("x.csv", table(TextFormat::kAuto, "sentence")), TextFormat::kCsv);
  EXPECT_EQ(resolved_text_format("x.csv", {}), TextFormat::kLines);
  const auto missing = error_of<core::ParseError>(p, table(TextFormat::kTsv, "text"));
  EXPECT_THAT(missing, HasSubstr("dev.tsv:1"));
  EXPECT_THAT(missing, HasSubstr("sentence"));  // the columns there are
}

TEST(TextInput, CsvWithQuotedFieldsAndLabels) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.csv", "id,review,y\n1,\"The actor, sadly, left.\",neg\n2,,pos\n");
  const auto r = read_text_records(p, table(TextFormat::kAuto, "review", "y"));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].text, "The actor, sadly, left.");
  EXPECT_EQ(r[1].text, "");
  EXPECT_EQ(*r[1].label, "pos");
  const auto empty_label = dir.write("e.csv", "review,y\nfine,pos\nbad,\n");
  EXPECT_THAT(error_of<core::ParseError>(empty_label, table(TextFormat::kCsv, "review", "y")),
              HasSubstr("e.csv:3"));
}

TEST(TextInput, TsvWithoutHeaderHasTheLabelLast) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.txt", "good\tfilm\t1\n\nbad film\t0");
  const auto r = read_text_records(p, table(TextFormat::kTsvNoHeader, ""));
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].text, "good\tfilm");
  EXPECT_EQ(*r[0].label, "1");
  EXPECT_FALSE(r[1].label.has_value());  // an empty line: an empty, unlabelled text
  EXPECT_EQ(*r[2].label, "0");
  const auto bad = dir.write("bad.txt", "ok\t1\nno label here\n");
  const auto e = error_of<core::ParseError>(bad, table(TextFormat::kTsvNoHeader, ""));
  EXPECT_THAT(e, HasSubstr("bad.txt:2"));
  EXPECT_THAT(e, HasSubstr("expected TEXT<TAB>LABEL"));
}

TEST(TextInput, ColumnsMustFitTheFormat) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.tsv", "text\tlabel\nfine\tpos\n");
  EXPECT_THAT(error_of<core::UsageError>(p, table(TextFormat::kTsv, "")),
              HasSubstr("name of the text column"));
  EXPECT_THAT(error_of<core::UsageError>(p, table(TextFormat::kLines, "text")),
              HasSubstr("no named columns"));
  EXPECT_THAT(error_of<core::UsageError>(p, table(TextFormat::kTsvNoHeader, "", "label")),
              HasSubstr("without a header"));
  EXPECT_THAT(error_of<core::UsageError>(p, table(TextFormat::kAuto, "", "label")),
              HasSubstr("no named columns"));
  EXPECT_EQ(parse_text_format("tsv-no-header"), TextFormat::kTsvNoHeader);
  EXPECT_FALSE(parse_text_format("TSV").has_value());
}

TEST(TextInput, InvalidUtf8HugeLinesAndLatin1) {
  assay::testing::TempDir dir;
  const auto p = dir.write("in.txt", "fine\nbad \xe9t\xe9\n");
  const auto e = error_of<core::ParseError>(p, {});
  EXPECT_THAT(e, HasSubstr("in.txt:2:5"));
  EXPECT_THAT(e, HasSubstr("invalid UTF-8"));
  TextInputOptions latin1;
  latin1.latin1 = true;
  EXPECT_EQ(read_text_records(p, latin1)[1].text, "bad \xc3\xa9t\xc3\xa9");
  const auto big = dir.write("big.txt", "ok\n" + std::string(10 << 20, 'a') + "\n");
  const auto huge = error_of<core::ParseError>(big, {});
  EXPECT_THAT(huge, HasSubstr("big.txt:2"));
  EXPECT_THAT(huge, HasSubstr("longer than the limit"));
  const auto wide = dir.write("w.tsv", "text\nshort\n" + std::string(100, 'b') + "\n");
  auto o = table(TextFormat::kTsv, "text");
  o.max_line_bytes = 50;
  EXPECT_THAT(error_of<core::ParseError>(wide, o), HasSubstr("w.tsv:3"));
}

// The limit holds while the input is read, in every format: a device stops at its first NUL,
// a line of `lines` or `tsv-no-header` at the limit, a table's record at twice the limit (its
// other columns), its text at the limit.
TEST(TextInput, LimitsHoldWhileReading) {
  for (const auto format : {TextFormat::kLines, TextFormat::kTsvNoHeader}) {
    TextInputOptions o;
    o.format = format;
    EXPECT_THAT(error_of<core::ParseError>("/dev/zero", o),
                HasSubstr("/dev/zero:1:1: binary data (a NUL byte)"));
  }
  EXPECT_THAT(error_of<core::ParseError>("/dev/zero", table(TextFormat::kCsv, "text")),
              HasSubstr("/dev/zero:1:1: binary data (a NUL byte)"));
  assay::testing::TempDir dir;
  auto o = table(TextFormat::kTsv, "text", "label");
  o.max_line_bytes = 50;
  const std::string text(50, 't');
  const auto fits =
      dir.write("fits.tsv", "text\tlabel\n" + text + "\t" + std::string(49, 'l') + "\n");
  EXPECT_EQ(read_text_records(fits, o)[0].text, text);
  const auto wide = dir.write(
      "wide.tsv", "text\tlabel\nshort\tpos\n" + text + "\t" + std::string(50, 'l') + "\n");
  EXPECT_THAT(error_of<core::ParseError>(wide, o),
              HasSubstr("wide.tsv:3: a line of 101 bytes is longer than the limit of 100 bytes"));
  TextInputOptions lines;
  lines.max_line_bytes = 50;
  const auto big = dir.write("big.txt", "ok\n" + std::string(1 << 20, 'a'));
  EXPECT_THAT(error_of<core::ParseError>(big, lines),
              HasSubstr("big.txt:2: a line longer than the limit of 50 bytes"));
}

}  // namespace
}  // namespace assay::models
