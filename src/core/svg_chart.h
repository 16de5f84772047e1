// Self-contained SVG charts for reports: grouped bar charts (optionally on a log10 axis),
// line charts and histograms, with title, axis labels and a legend. Output is a complete
// <svg> document; numbers are printed with fixed precision so the same data gives the same
// bytes.
#pragma once

#include <string>
#include <vector>

#include "core/xml_escape.h"

namespace assay::core {

struct ChartLabels {
  std::string title;
  std::string x_label;
  std::string y_label;
  int width = 800;
  int height = 450;
};

struct BarSeries {
  std::string name;
  std::vector<double> values;  // one per category; NaN draws no bar
};

struct BarChart {
  ChartLabels labels;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  // Log10 axis: values must be > 0 (others are not drawn). Bars start from 1 (10^0), so
  // ratios below 1 point down.
  bool log_y = false;
};

struct LineSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
};

struct LineChart {
  ChartLabels labels;
  std::vector<LineSeries> series;
};

struct Histogram {
  ChartLabels labels;
  std::vector<double> values;
  int n_bins = 20;
};

std::string render_svg(const BarChart& chart);
std::string render_svg(const LineChart& chart);
std::string render_svg(const Histogram& chart);

}  // namespace assay::core
