#include "core/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace assay::core {
namespace {

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
constexpr int kMarginLeft = 70, kMarginRight = 160, kMarginTop = 40, kMarginBottom = 70;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string tick_label(double v) {
  char buf[32];
  if (v != 0 && (std::fabs(v) >= 1e5 || std::fabs(v) < 1e-3)) {
    std::snprintf(buf, sizeof buf, "%.0e", v);
  } else {
    std::snprintf(buf, sizeof buf, "%g", v);
  }
  return buf;
}

const char* color(std::size_t i) {
  return kPalette[i % (sizeof kPalette / sizeof *kPalette)];
}

// "Nice" linear ticks covering [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int target = 6) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * mag) {
      step = m * mag;
      break;
    }
  }
  std::vector<double> ticks;
  for (double t = std::floor(lo / step) * step; t <= hi + step * 1e-9; t += step) {
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  return ticks;
}

struct Frame {
  const ChartLabels& labels;
  double bottom = kMarginBottom;  // grows with rotated or grouped category labels
  double plot_w() const { return labels.width - kMarginLeft - kMarginRight; }
  double plot_h() const { return labels.height - kMarginTop - bottom; }
};

// Estimated width in pixels of `text` at font-size 12 (sans-serif): generous, so a label
// judged to fit does fit.
double text_width(const std::string& text) {
  double w = 0;
  for (const unsigned char ch : text) {
    if ((ch & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    if (ch == ' ') {
      w += 3.6;
    } else if (ch >= 'A' && ch <= 'Z') {
      w += 8.4;
    } else if (ch == 'm' || ch == 'w' || ch == 'M' || ch == 'W' || ch >= 0x80) {
      w += 9.6;
    } else {
      w += 7.0;
    }
  }
  return w;
}

std::string open_svg(const ChartLabels& l, double bottom = kMarginBottom) {
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(l.width) +
                  "\" height=\"" + std::to_string(l.height) + "\" viewBox=\"0 0 " +
                  std::to_string(l.width) + " " + std::to_string(l.height) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + num(l.width / 2.0) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" +
       xml_escape(l.title) + "</text>\n";
  const double px = kMarginLeft + (l.width - kMarginLeft - kMarginRight) / 2.0;
  s += "<text x=\"" + num(px) + "\" y=\"" + num(l.height - 12.0) + "\" text-anchor=\"middle\">" +
       xml_escape(l.x_label) + "</text>\n";
  const double py = kMarginTop + (l.height - kMarginTop - bottom) / 2.0;
  s += "<text x=\"16\" y=\"" + num(py) + "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " +
       num(py) + ")\">" + xml_escape(l.y_label) + "</text>\n";
  return s;
}

std::string legend(const ChartLabels& l, const std::vector<std::string>& names) {
  std::string s;
  const double x = l.width - kMarginRight + 12;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double y = kMarginTop + 18.0 * static_cast<double>(i);
    s += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"12\" height=\"12\" fill=\"" +
         color(i) + "\"/>\n";
    s += "<text x=\"" + num(x + 18) + "\" y=\"" + num(y + 10) + "\">" + xml_escape(names[i]) +
         "</text>\n";
  }
  return s;
}

// Y axis with gridlines; `to_px` maps an axis value to a y pixel.
template <class F>
std::string y_axis(const Frame& f, const std::vector<double>& ticks, F to_px, bool log_labels) {
  std::string s;
  for (double t : ticks) {
    const double y = to_px(t);
    s += "<line x1=\"" + num(kMarginLeft) + "\" x2=\"" + num(kMarginLeft + f.plot_w()) +
         "\" y1=\"" + num(y) + "\" y2=\"" + num(y) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + num(kMarginLeft - 6.0) + "\" y=\"" + num(y + 4) +
         "\" text-anchor=\"end\">" + tick_label(log_labels ? std::pow(10.0, t) : t) + "</text>\n";
  }
  s += "<line x1=\"" + num(kMarginLeft) + "\" x2=\"" + num(kMarginLeft) + "\" y1=\"" +
       num(kMarginTop) + "\" y2=\"" + num(kMarginTop + f.plot_h()) + "\" stroke=\"black\"/>\n";
  return s;
}

}  // namespace

namespace {

// Category label layout: horizontal, or rotated when fit_labels and a label is wider than its
// slot; a group row below when groups are given. The chart grows by what they need beyond the
// default bottom margin (`extra`).
struct LabelLayout {
  int angle = 0;  // 0, 45 or 90 degrees
  double depth = 0;
  bool grouped = false;
  double extra = 0;
};

LabelLayout label_layout(const BarChart& chart) {
  LabelLayout l;
  const std::size_t n_cat0 = std::max<std::size_t>(1, chart.categories.size());
  const double slot0 =
      (chart.labels.width - kMarginLeft - kMarginRight) / static_cast<double>(n_cat0);
  double widest = 0;
  for (const auto& cat : chart.categories) widest = std::max(widest, text_width(cat));
  if (chart.fit_labels && widest > slot0 - 4) l.angle = slot0 >= 22 ? 45 : 90;
  l.grouped = !chart.groups.empty() && chart.groups.size() == chart.categories.size();
  l.depth = l.angle == 0 ? 16.0 : l.angle == 45 ? widest * 0.7072 + 14 : widest + 10;
  const double needed = l.depth + (l.grouped ? 22.0 : 0.0) + 30.0;
  l.extra = std::max(0.0, std::ceil(needed - kMarginBottom));
  return l;
}

// Where a bar chart's parts go: the category labels' angle and depth, the frame, the value axis
// (log or linear) and the bars' widths. Not copied (the frame refers to `grown`).
struct BarLayout {
  const BarChart& chart;
  int angle = 0;           // category labels: 0, 45 or 90 degrees
  double label_depth = 0;  // how far below the plot they reach
  bool grouped = false;    // a row of group names below them
  ChartLabels grown;       // the chart's labels, its height grown by what the labels need
  Frame f;
  double lo = 0, hi = 0;  // the value axis (log10 of the values with log_y)
  std::vector<double> ticks;
  double group_w = 0, bar_w = 0, zero_px = 0;

  explicit BarLayout(const BarChart& c) : BarLayout(c, label_layout(c)) {}
  BarLayout(const BarChart& c, const LabelLayout& l);
  BarLayout(const BarLayout&) = delete;
  BarLayout& operator=(const BarLayout&) = delete;
  // The axis value of `v` (NaN for a value a log axis cannot show).
  double axis_value(double v) const {
    if (!chart.log_y) return v;
    return v > 0 ? std::log10(v) : std::numeric_limits<double>::quiet_NaN();
  }
  double to_px(double a) const { return kMarginTop + f.plot_h() * (hi - a) / (hi - lo); }
  // Category c's series k: its bar (or its marker), whisker and flag.
  std::string bar(std::size_t c, std::size_t k) const;
  std::string category_label(std::size_t c) const;
  std::string group_row() const;
  std::string style_key(std::size_t n_series) const;

 private:
  void fit_axis();
};

BarLayout::BarLayout(const BarChart& c, const LabelLayout& l)
    : chart(c),
      angle(l.angle),
      label_depth(l.depth),
      grouped(l.grouped),
      grown(c.labels),
      f{grown, kMarginBottom + l.extra} {
  grown.height += static_cast<int>(l.extra);
  fit_axis();
  const std::size_t n_cat = std::max<std::size_t>(1, chart.categories.size());
  group_w = f.plot_w() / static_cast<double>(n_cat);
  const double n_series = static_cast<double>(std::max<std::size_t>(1, chart.series.size()));
  bar_w = group_w * 0.8 / n_series;
  zero_px = to_px(std::clamp(0.0, lo, hi));
}

void BarLayout::fit_axis() {
  lo = 0;
  hi = chart.log_y ? 0.0 : 1e-12;
  for (const auto& s : chart.series) {
    for (const auto* vs : {&s.values, &s.low, &s.high}) {
      for (double v : *vs) {
        const double a = axis_value(v);
        if (!std::isfinite(a)) continue;
        lo = std::min(lo, a);
        hi = std::max(hi, a);
      }
    }
  }
  if (chart.log_y) {
    lo = std::floor(lo);
    hi = std::ceil(hi);
    if (hi <= lo) hi = lo + 1;
    for (double t = lo; t <= hi; t += 1) ticks.push_back(t);
    return;
  }
  ticks = nice_ticks(lo, hi);
  if (chart.counts) {
    // Whole-number steps, and one more tick when the tallest bar stands above the last.
    const double step = ticks.size() > 1 ? std::max(1.0, ticks[1] - ticks[0]) : 1.0;
    ticks.clear();
    for (double t = std::floor(lo / step) * step; t < hi + step; t += step) {
      ticks.push_back(t);
      if (t >= hi) break;
    }
  }
  lo = std::min(lo, ticks.front());
  hi = std::max(hi, ticks.back());
}

std::string BarLayout::bar(std::size_t c, std::size_t k) const {
  const auto& series = chart.series[k];
  const auto& values = series.values;
  if (c >= values.size()) return {};
  const double gx = kMarginLeft + group_w * static_cast<double>(c);
  const double a = axis_value(values[c]);
  const double x = gx + group_w * 0.1 + bar_w * static_cast<double>(k);
  const std::string what =
      grouped ? chart.groups[c] + " " + chart.categories[c] : chart.categories[c];
  const std::string note = c < series.notes.size() && !series.notes[c].empty()
                               ? " (" + xml_escape(series.notes[c]) + ")"
                               : "";
  std::string s;
  if (!std::isfinite(a)) {
    if (c < series.marker.size() && series.marker[c]) {
      // An open triangle standing on the origin line, as wide as the bar (at most 12 px).
      const double w = std::min(bar_w, 12.0), cx = x + bar_w / 2;
      s += "<path d=\"M" + num(cx - w / 2) + " " + num(zero_px) + "L" + num(cx + w / 2) + " " +
           num(zero_px) + "L" + num(cx) + " " + num(zero_px - w) + "Z\" fill=\"white\" stroke=\"" +
           color(k) + "\" stroke-width=\"1.5\"><title>" + xml_escape(series.name + " / " + what) +
           note + "</title></path>\n";
    }
    return s;
  }
  const double y = to_px(a);
  const bool faint = c < series.faint.size() && series.faint[c];
  s += "<rect x=\"" + num(x) + "\" y=\"" + num(std::min(y, zero_px)) + "\" width=\"" + num(bar_w) +
       "\" height=\"" + num(std::fabs(zero_px - y)) + "\" fill=\"" + color(k) +
       (faint ? "\" fill-opacity=\"0.3" : "") + "\"><title>" +
       xml_escape(series.name + " / " + what) + ": " + tick_label(values[c]) + note +
       "</title></rect>\n";
  // The bar's far end from the origin line, its whisker included (for a flag).
  double top = std::min(y, zero_px), bottom = std::max(y, zero_px);
  if (c < series.low.size() && c < series.high.size() && !std::isnan(series.low[c]) &&
      !std::isnan(series.high[c])) {
    const auto end_px = [&](double v) {
      const double e = axis_value(v);
      return std::isfinite(e) ? to_px(std::clamp(e, lo, hi)) : to_px(lo);
    };
    const double y0 = end_px(series.low[c]), y1 = end_px(series.high[c]);
    top = std::min({top, y0, y1});
    bottom = std::max({bottom, y0, y1});
    const double cx = x + bar_w / 2, cap = std::min(bar_w * 0.3, 4.0);
    s += "<path d=\"M" + num(cx) + " " + num(y0) + "V" + num(y1) + "M" + num(cx - cap) + " " +
         num(y0) + "H" + num(cx + cap) + "M" + num(cx - cap) + " " + num(y1) + "H" + num(cx + cap) +
         "\" stroke=\"#222\" fill=\"none\"/>\n";
  }
  if (c < series.flagged.size() && series.flagged[c]) {
    // Above a bar that rises from the origin line, below one that falls from it.
    const double fy = y <= zero_px ? top - 3 : bottom + 11;
    s += "<text x=\"" + num(x + bar_w / 2) + "\" y=\"" + num(fy) +
         "\" text-anchor=\"middle\" font-size=\"12\" fill=\"" + color(k) + "\">★<title>" +
         xml_escape(series.name + " / " + what) + note + "</title></text>\n";
  }
  return s;
}

std::string BarLayout::category_label(std::size_t c) const {
  const double gx = kMarginLeft + group_w * static_cast<double>(c);
  const double base = kMarginTop + f.plot_h();
  if (angle == 0) {
    return "<text x=\"" + num(gx + group_w / 2) + "\" y=\"" + num(base + 16) +
           "\" text-anchor=\"middle\">" + xml_escape(chart.categories[c]) + "</text>\n";
  }
  const double lx = gx + group_w / 2 + (angle == 45 ? 3.0 : 4.0);
  const double ly = base + (angle == 45 ? 10.0 : 6.0);
  return "<text x=\"" + num(lx) + "\" y=\"" + num(ly) +
         "\" text-anchor=\"end\" transform=\"rotate(-" + std::to_string(angle) + " " + num(lx) +
         " " + num(ly) + ")\">" + xml_escape(chart.categories[c]) + "</text>\n";
}

std::string BarLayout::group_row() const {
  std::string s;
  const double base = kMarginTop + f.plot_h();
  std::size_t first = 0;
  for (std::size_t c = 1; c <= chart.categories.size(); ++c) {
    if (c < chart.categories.size() && chart.groups[c] == chart.groups[first]) continue;
    const double x0 = kMarginLeft + group_w * static_cast<double>(first);
    const double x1 = kMarginLeft + group_w * static_cast<double>(c);
    if (c < chart.categories.size()) {
      s += "<line x1=\"" + num(x1) + "\" x2=\"" + num(x1) + "\" y1=\"" + num(kMarginTop) +
           "\" y2=\"" + num(base + label_depth + 4) + "\" stroke=\"#bbb\"/>\n";
    }
    // A name wider than its group is set smaller, then shortened ("…", the full name as
    // the tooltip), so neighbouring groups' names never run into each other.
    const std::string& name = chart.groups[first];
    std::string shown = name, size;
    if (text_width(name) > x1 - x0 - 6) {
      size = " font-size=\"10\"";
      while (!shown.empty() && text_width(shown + "…") * 10 / 12 > x1 - x0 - 6) {
        do {
          shown.pop_back();
        } while (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0x80);
      }
      if (text_width(name) * 10 / 12 > x1 - x0 - 6) shown += "…";
    }
    s += "<text x=\"" + num((x0 + x1) / 2) + "\" y=\"" + num(base + label_depth + 18) +
         "\" text-anchor=\"middle\" font-weight=\"bold\"" + size + ">" +
         (shown == name ? "" : "<title>" + xml_escape(name) + "</title>") + xml_escape(shown) +
         "</text>\n";
    first = c;
  }
  return s;
}

// The style key under the series: a grey example of each style, then its meaning.
std::string BarLayout::style_key(std::size_t n_series) const {
  std::string s;
  double key_y = kMarginTop + 18.0 * static_cast<double>(n_series) + 8;
  const double kx = grown.width - kMarginRight + 12;
  const auto key_line = [&](const std::string& meaning, const std::string& glyph) {
    if (meaning.empty()) return;
    s += glyph + "<text x=\"" + num(kx + 18) + "\" y=\"" + num(key_y + 10) +
         "\" font-size=\"11\">" + xml_escape(meaning) + "</text>\n";
    key_y += 18;
  };
  key_line(chart.faint_meaning, "<rect x=\"" + num(kx) + "\" y=\"" + num(key_y) +
                                    "\" width=\"12\" height=\"12\" fill=\"#555\" "
                                    "fill-opacity=\"0.3\"/>\n");
  key_line(chart.marker_meaning, "<path d=\"M" + num(kx) + " " + num(key_y + 12) + "H" +
                                     num(kx + 12) + "L" + num(kx + 6) + " " + num(key_y) +
                                     "Z\" fill=\"white\" stroke=\"#555\" stroke-width=\"1.5\"/>\n");
  key_line(chart.flag_meaning, "<text x=\"" + num(kx + 6) + "\" y=\"" + num(key_y + 11) +
                                   "\" text-anchor=\"middle\" font-size=\"12\" "
                                   "fill=\"#555\">★</text>\n");
  key_line(chart.whisker_meaning, "<path d=\"M" + num(kx + 6) + " " + num(key_y) + "V" +
                                      num(key_y + 12) + "M" + num(kx + 3) + " " + num(key_y) + "H" +
                                      num(kx + 9) + "M" + num(kx + 3) + " " + num(key_y + 12) +
                                      "H" + num(kx + 9) + "\" stroke=\"#222\" fill=\"none\"/>\n");
  return s;
}

}  // namespace

std::string render_svg(const BarChart& chart) {
  const BarLayout layout(chart);
  const auto& f = layout.f;
  std::string s = open_svg(layout.grown, f.bottom);
  s += y_axis(
      f, layout.ticks, [&](double a) { return layout.to_px(a); }, chart.log_y);
  for (std::size_t c = 0; c < chart.categories.size(); ++c) {
    for (std::size_t k = 0; k < chart.series.size(); ++k) s += layout.bar(c, k);
    s += layout.category_label(c);
  }
  if (layout.grouped) s += layout.group_row();
  s += "<line x1=\"" + num(kMarginLeft) + "\" x2=\"" + num(kMarginLeft + f.plot_w()) + "\" y1=\"" +
       num(layout.zero_px) + "\" y2=\"" + num(layout.zero_px) + "\" stroke=\"black\"/>\n";
  std::vector<std::string> names;
  for (const auto& se : chart.series) names.push_back(se.name);
  s += legend(layout.grown, names);
  s += layout.style_key(names.size());
  s += "</svg>\n";
  return s;
}

std::string render_svg(const LineChart& chart) {
  const Frame f{chart.labels};
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
  double y_lo = x_lo, y_hi = -x_lo;
  for (const auto& se : chart.series) {
    for (std::size_t i = 0; i < se.x.size() && i < se.y.size(); ++i) {
      if (!std::isfinite(se.x[i]) || !std::isfinite(se.y[i])) continue;
      x_lo = std::min(x_lo, se.x[i]), x_hi = std::max(x_hi, se.x[i]);
      y_lo = std::min(y_lo, se.y[i]), y_hi = std::max(y_hi, se.y[i]);
    }
  }
  // On a log x axis x stands for log10(x) from here on.
  auto ax = [&](double x) {
    if (!chart.log_x) return x;
    return x > 0 ? std::log10(x) : std::numeric_limits<double>::quiet_NaN();
  };
  if (chart.log_x) {
    x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
    for (const auto& se : chart.series) {
      for (std::size_t i = 0; i < se.x.size() && i < se.y.size(); ++i) {
        if (!std::isfinite(ax(se.x[i])) || !std::isfinite(se.y[i])) continue;
        x_lo = std::min(x_lo, ax(se.x[i])), x_hi = std::max(x_hi, ax(se.x[i]));
      }
    }
    if (!std::isfinite(x_lo)) x_lo = 0, x_hi = 1;
    x_lo = std::floor(x_lo), x_hi = std::ceil(x_hi);
    if (x_hi <= x_lo) x_hi = x_lo + 1;
  }
  if (!std::isfinite(x_lo)) x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  const auto yt = nice_ticks(y_lo, y_hi);
  std::vector<double> xt;
  if (chart.log_x) {
    for (double t = x_lo; t <= x_hi; t += 1) xt.push_back(t);
  } else {
    xt = nice_ticks(x_lo, x_hi);
  }
  y_lo = std::min(y_lo, yt.front()), y_hi = std::max(y_hi, yt.back());
  x_lo = std::min(x_lo, xt.front()), x_hi = std::max(x_hi, xt.back());
  auto to_py = [&](double v) { return kMarginTop + f.plot_h() * (y_hi - v) / (y_hi - y_lo); };
  auto to_px = [&](double v) { return kMarginLeft + f.plot_w() * (v - x_lo) / (x_hi - x_lo); };

  std::string s = open_svg(chart.labels);
  s += y_axis(f, yt, to_py, false);
  const double base = kMarginTop + f.plot_h();
  s += "<line x1=\"" + num(kMarginLeft) + "\" x2=\"" + num(kMarginLeft + f.plot_w()) + "\" y1=\"" +
       num(base) + "\" y2=\"" + num(base) + "\" stroke=\"black\"/>\n";
  for (double t : xt) {
    s += "<text x=\"" + num(to_px(t)) + "\" y=\"" + num(base + 16) + "\" text-anchor=\"middle\">" +
         tick_label(chart.log_x ? std::pow(10.0, t) : t) + "</text>\n";
  }
  for (std::size_t k = 0; k < chart.series.size(); ++k) {
    const auto& se = chart.series[k];
    std::string points;
    std::string dots;
    for (std::size_t i = 0; i < se.x.size() && i < se.y.size(); ++i) {
      if (!std::isfinite(ax(se.x[i])) || !std::isfinite(se.y[i])) continue;
      points += num(to_px(ax(se.x[i]))) + "," + num(to_py(se.y[i])) + " ";
      if (chart.markers) {
        dots += "<circle cx=\"" + num(to_px(ax(se.x[i]))) + "\" cy=\"" + num(to_py(se.y[i])) +
                "\" r=\"3\" fill=\"" + color(k) + "\"><title>" + xml_escape(se.name) + ": " +
                tick_label(se.x[i]) + ", " + tick_label(se.y[i]) + "</title></circle>\n";
      }
    }
    s += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + std::string(color(k)) +
         "\" points=\"" + points + "\"/>\n" + dots;
  }
  std::vector<std::string> names;
  for (const auto& se : chart.series) names.push_back(se.name);
  s += legend(chart.labels, names);
  s += "</svg>\n";
  return s;
}

std::string render_svg(const Histogram& chart) {
  std::vector<double> v;
  for (double x : chart.values) {
    if (std::isfinite(x)) v.push_back(x);
  }
  const int n_bins = std::max(1, chart.n_bins);
  double lo = v.empty() ? 0 : *std::min_element(v.begin(), v.end());
  double hi = v.empty() ? 1 : *std::max_element(v.begin(), v.end());
  if (!(hi > lo)) hi = lo + 1;
  std::vector<double> counts(static_cast<std::size_t>(n_bins), 0.0);
  for (double x : v) {
    auto b = static_cast<int>((x - lo) / (hi - lo) * n_bins);
    counts[static_cast<std::size_t>(std::clamp(b, 0, n_bins - 1))] += 1;
  }
  BarChart bars;
  bars.labels = chart.labels;
  bars.series.push_back({"count", counts});
  for (int b = 0; b < n_bins; ++b) {
    bars.categories.push_back(tick_label(lo + (hi - lo) * (b + 0.5) / n_bins));
  }
  return render_svg(bars);
}

}  // namespace assay::core
