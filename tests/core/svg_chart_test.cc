#include "core/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>

namespace assay::core {
namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(SvgChart, BarChartHasBarsLabelsAndLegend) {
  BarChart c;
  c.labels = {"Ratio <to> baseline", "heuristic", "ratio", 800, 450};
  c.categories = {"a", "b", "c"};
  c.series = {{"funk-svd", {1, 2, 3}}, {"item-item", {0.5, NAN, 4}}};
  const std::string svg = render_svg(c);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("Ratio &lt;to&gt; baseline"), std::string::npos);
  EXPECT_EQ(count(svg, "<rect x="), 5 + 2);  // 5 finite bars + 2 legend swatches
  EXPECT_NE(svg.find(">item-item</text>"), std::string::npos);
  EXPECT_EQ(svg, render_svg(c));  // deterministic
}

TEST(SvgChart, LogAxisDrawsBarsDownwardBelowOne) {
  BarChart c;
  c.log_y = true;
  c.categories = {"up", "down"};
  c.series = {{"s", {100, 0.01}}};
  const std::string svg = render_svg(c);
  EXPECT_NE(svg.find(">100</text>"), std::string::npos);
  EXPECT_NE(svg.find(">0.01</text>"), std::string::npos);
}

// Whiskers, faint bars and markers: each drawn where asked, and the style key explains them.
TEST(SvgChart, BarStylesWhiskersFaintAndMarkers) {
  BarChart c;
  c.log_y = true;
  c.categories = {"a", "b", "c"};
  BarSeries s;
  s.name = "n = 10";
  s.values = {4, 2, NAN};
  s.low = {2, 0, NAN};  // b's lower quartile is 0: its whisker runs to the axis bottom
  s.high = {1000, 3, NAN};
  s.faint = {false, true, false};
  s.marker = {false, false, true};
  s.flagged = {true, false, false};
  s.notes = {"", "p 0.4", "baseline 0"};
  c.series = {s};
  c.flag_meaning = "a finding";
  c.faint_meaning = "not significant";
  c.marker_meaning = "baseline 0";
  c.whisker_meaning = "quartiles";
  const std::string svg = render_svg(c);
  EXPECT_EQ(count(svg, "fill-opacity=\"0.3\""), 2);    // b and its key swatch
  EXPECT_EQ(count(svg, "stroke=\"#222\""), 3);         // a's and b's whiskers, the key's
  EXPECT_EQ(count(svg, "fill=\"white\" stroke="), 2);  // c's triangle, the key's
  EXPECT_NE(svg.find("n = 10 / c (baseline 0)</title>"), std::string::npos);
  EXPECT_NE(svg.find(": 2 (p 0.4)</title>"), std::string::npos);
  EXPECT_NE(svg.find(">not significant</text>"), std::string::npos);
  // a's star stands above its whisker's top, not on its bar; the key explains it.
  EXPECT_EQ(count(svg, ">★<title>"), 1);
  EXPECT_NE(svg.find(">a finding</text>"), std::string::npos);
  // The axis holds the whisker's top (1000), not only the bars (4).
  EXPECT_NE(svg.find(">1000</text>"), std::string::npos);
  // Without the opt-in fields, nothing of them is drawn.
  BarChart plain;
  plain.log_y = true;
  plain.categories = c.categories;
  plain.series = {{"n = 10", {4, 2, NAN}}};
  const std::string p = render_svg(plain);
  EXPECT_EQ(count(p, "fill-opacity"), 0);
  EXPECT_EQ(count(p, "<path"), 0);
  EXPECT_EQ(count(p, "★"), 0);
}

TEST(SvgChart, LineChartAndHistogram) {
  LineChart l;
  l.series = {{"ap", {0, 1, 2}, {0.1, 0.5, 0.9}}};
  EXPECT_EQ(count(render_svg(l), "<polyline"), 1);
  Histogram h;
  h.n_bins = 4;
  h.values = {0, 0.1, 0.2, 0.9, 1.0};
  const std::string svg = render_svg(h);
  EXPECT_EQ(count(svg, "<rect x="), 4 + 1);
}

// The opt-in layout: long labels in narrow slots are rotated and the chart grows downwards;
// groups get one label each and the tooltip names group and category. Without the options
// the output is what it always was.
TEST(SvgChart, FitLabelsRotatesAndGroupsLabel) {
  BarChart c;
  c.labels = {"t", "x", "y", 600, 450};
  for (const char* g : {"user-user", "item-item"}) {
    for (const char* h : {"APORTFOLIO", "CMU", "AMR", "AMU", "CMR", "CPORTFOLIO"}) {
      c.categories.push_back(h);
      c.groups.push_back(g);
    }
  }
  c.series = {{"n = 1", std::vector<double>(12, 2.0)}};
  BarChart plain = c;
  plain.groups.clear();
  const std::string before = render_svg(plain);
  EXPECT_EQ(before.find("rotate(-45"), std::string::npos);
  EXPECT_NE(before.find("height=\"450\""), std::string::npos);

  c.fit_labels = true;
  const std::string svg = render_svg(c);
  EXPECT_EQ(count(svg, "rotate(-45"), 12);
  EXPECT_EQ(svg.find("height=\"450\""), std::string::npos);  // grown for the rotated labels
  EXPECT_EQ(count(svg, "font-weight=\"bold\">user-user</text>"), 1);
  EXPECT_EQ(count(svg, "font-weight=\"bold\">item-item</text>"), 1);
  EXPECT_NE(svg.find("<title>n = 1 / item-item CMU: 2</title>"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke=\"#bbb\""), 1);  // one rule between the two groups

  c.labels.width = 440;                                   // slots of 17.5 px: upright labels
  EXPECT_EQ(count(render_svg(c), "rotate(-90"), 12 + 1);  // and the y axis title
  for (std::size_t i = 0; i < 6; ++i) c.groups[i] = "user-user:neighbors=20:min-sim=0.5";
  const std::string shortened = render_svg(c);
  EXPECT_NE(shortened.find("<title>user-user:neighbors=20:min-sim=0.5</title>user-user:"),
            std::string::npos)
      << shortened;
  EXPECT_NE(shortened.find("…</text>"), std::string::npos);
  c.labels.width = 3000;                           // room for every label: nothing rotated
  EXPECT_EQ(count(render_svg(c), "rotate(-"), 1);  // only the y axis title
}

// Counts: whole-number ticks, and the axis ends at the first tick at or above the tallest bar.
TEST(SvgChart, BarChartOfCountsEndsAtATickAboveTheTallestBar) {
  BarChart c;
  c.categories = {"1", "2", "3"};
  c.series = {{"inputs", {7, 0, 3}}};
  const std::string plain = render_svg(c);  // ticks 0, 2, 4, 6: the bar of 7 stands above
  EXPECT_NE(plain.find(">6</text>"), std::string::npos) << plain;
  EXPECT_EQ(plain.find(">8</text>"), std::string::npos) << plain;
  c.counts = true;
  const std::string svg = render_svg(c);
  EXPECT_NE(svg.find(">8</text>"), std::string::npos) << svg;
  c.series = {{"inputs", {2, 0, 1}}};
  const std::string small = render_svg(c);  // no half inputs
  EXPECT_EQ(small.find(">0.5</text>"), std::string::npos) << small;
  EXPECT_NE(small.find(">2</text>"), std::string::npos) << small;
  c.counts = false;
  EXPECT_NE(render_svg(c).find(">0.5</text>"), std::string::npos);
}

TEST(SvgChart, LineChartLogXAndMarkers) {
  LineChart l;
  l.series = {{"lr", {0.1, 1, 10}, {4, 38, 100}}};
  const std::string linear = render_svg(l);
  EXPECT_EQ(count(linear, "<circle"), 0);
  l.log_x = true;
  l.markers = true;
  const std::string svg = render_svg(l);
  EXPECT_EQ(count(svg, "<circle"), 3);
  for (const char* tick : {">0.1</text>", ">1</text>", ">10</text>"}) {
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  }
  EXPECT_NE(svg.find("<title>lr: 0.1, 4</title>"), std::string::npos);
}

}  // namespace
}  // namespace assay::core
