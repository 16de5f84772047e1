// Self-contained SVG charts for reports: grouped bar charts (optionally on a log10 axis),
// line charts and histograms, with title, axis labels and a legend. Output is a complete
// <svg> document; numbers are printed with fixed precision so the same data gives the same
// bytes. The opt-in fields (BarChart::groups, fit_labels, counts, BarSeries::low/high, faint,
// marker; LineChart::log_x, markers) leave the output of a chart that does not set them byte for
// byte as it was.
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
  // Optional, one per category each: a whisker from low to high over the bar (the spread of
  // the trials behind it; NaN: none; on a log axis an end <= 0 is drawn at the axis bottom),
  // a bar drawn faint (e.g. not significant), and, where the value is NaN, an open triangle on
  // the origin line marking a value that exists but cannot be drawn (e.g. a ratio over 0).
  std::vector<double> low = {}, high = {};
  std::vector<bool> faint = {};
  std::vector<bool> marker = {};
  // Optional, one per category: a star beyond the end of the bar (and of its whisker), so that
  // a bar too short to see still shows (e.g. a finding).
  std::vector<bool> flagged = {};
  // Optional, one per category: more text for the bar's tooltip.
  std::vector<std::string> notes = {};
};

struct BarChart {
  ChartLabels labels;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  // Log10 axis: values must be > 0 (others are not drawn). Bars start from 1 (10^0), so
  // ratios below 1 point down.
  bool log_y = false;
  // Optional, one per category: consecutive categories with the same group are drawn as one
  // group, its name centred on a second label row under theirs, a light rule between groups;
  // a bar's tooltip reads "series / group category".
  std::vector<std::string> groups;
  // Category labels wider than their slot (estimated from the text) are rotated by 45° (90°
  // when the slot is narrower than 22 px); the chart grows downwards to hold them, so the plot
  // keeps its size and labels do not overlap while a slot is at least a text line (14 px) wide.
  bool fit_labels = false;
  // The values are counts: ticks are whole numbers and the axis ends at the first tick at or
  // above the tallest bar, so every bar reads against a labelled gridline.
  bool counts = false;
  // Legend lines explaining the opt-in bar styles, each shown when non-empty (short: the legend
  // column is 160 px wide).
  std::string faint_meaning, marker_meaning, whisker_meaning, flag_meaning;
};

struct LineSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
};

struct LineChart {
  ChartLabels labels;
  std::vector<LineSeries> series;
  // Log10 x axis (ticks at powers of ten; points with x <= 0 are not drawn).
  bool log_x = false;
  // A dot on every point, with the point's values as its tooltip.
  bool markers = false;
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
