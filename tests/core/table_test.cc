#include "core/table.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace assay::core {
namespace {

Table example() {
  Table t({{"heuristic"}, {"n = 10 (ms)", Align::kRight}}, "Table 3: mean time.");
  t.add_row({"AMR", "1.5"});
  t.add_row({"A<B>, \"q\"", std::string(Table::kMissing)});
  return t;
}

TEST(Table, MarkdownKeepsTheReportLayout) {
  EXPECT_EQ(example().markdown(),
            "| heuristic | n = 10 (ms) |\n|---|---:|\n| AMR | 1.5 |\n| A<B>, \"q\" | – |\n"
            "Table 3: mean time.\n");
}

TEST(Table, MarkdownWritesAnEmptyCellAsOneSpace) {
  Table t({{"a"}, {"b", Align::kRight}});
  t.add_row({"x", ""});
  EXPECT_EQ(t.markdown(), "| a | b |\n|---|---:|\n| x | |\n");
}

TEST(Table, CsvQuotesWhatNeedsItAndLeavesMissingEmpty) {
  EXPECT_EQ(example().csv(), "heuristic,n = 10 (ms)\nAMR,1.5\n\"A<B>, \"\"q\"\"\",\n");
  EXPECT_EQ(csv_field(" padded"), "\" padded\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("plain"), "plain");
}

TEST(Table, HtmlEscapesAndMarksNumbers) {
  const std::string html = example().html();
  EXPECT_NE(html.find("<caption>Table 3: mean time.</caption>"), std::string::npos);
  EXPECT_NE(html.find("<th class=\"num\">n = 10 (ms)</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>A&lt;B&gt;, &quot;q&quot;</td><td class=\"num\">–</td>"),
            std::string::npos);
}

TEST(Table, RowWidthIsChecked) {
  Table t({{"a"}, {"b"}});
  EXPECT_THROW(t.add_row({"only one"}), std::invalid_argument);
}

TEST(Table, HtmlColumnKeepsItsMarkup) {
  Table t({{"text", Align::kLeft, true}, {"plain"}});
  t.add_row({"the <mark>actress</mark>", "<b>"});
  EXPECT_NE(t.html().find("<td>the <mark>actress</mark></td><td>&lt;b&gt;</td>"), std::string::npos)
      << t.html();
}

}  // namespace
}  // namespace assay::core
