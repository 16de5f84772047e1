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

}  // namespace
}  // namespace assay::core
