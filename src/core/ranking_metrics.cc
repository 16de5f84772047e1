#include "core/ranking_metrics.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "core/check.h"

namespace assay::core {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Counts {
  std::vector<double> tps, fps;  // cumulative, one entry per distinct threshold (descending)
};

Counts cumulative_counts(std::span<const double> scores, std::span<const bool> labels) {
  ASSAY_CHECK(scores.size() == labels.size());
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  Counts c;
  double tp = 0, fp = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (labels[order[k]]) {
      tp += 1;
    } else {
      fp += 1;
    }
    if (k + 1 == order.size() || scores[order[k + 1]] != scores[order[k]]) {
      c.tps.push_back(tp);
      c.fps.push_back(fp);
    }
  }
  return c;
}
}  // namespace

double average_precision(std::span<const double> scores, std::span<const bool> labels) {
  const Counts c = cumulative_counts(scores, labels);
  if (c.tps.empty() || c.tps.back() == 0) return kNaN;
  const double n_pos = c.tps.back();
  double ap = 0, prev_recall = 0;
  for (std::size_t i = 0; i < c.tps.size(); ++i) {
    const double recall = c.tps[i] / n_pos;
    const double precision = c.tps[i] / (c.tps[i] + c.fps[i]);
    ap += (recall - prev_recall) * precision;
    prev_recall = recall;
  }
  return ap;
}

double roc_auc(std::span<const double> scores, std::span<const bool> labels) {
  const Counts c = cumulative_counts(scores, labels);
  if (c.tps.empty() || c.tps.back() == 0 || c.fps.back() == 0) return kNaN;
  const double n_pos = c.tps.back(), n_neg = c.fps.back();
  double area = 0, prev_tpr = 0, prev_fpr = 0;
  for (std::size_t i = 0; i < c.tps.size(); ++i) {
    const double tpr = c.tps[i] / n_pos, fpr = c.fps[i] / n_neg;
    area += (fpr - prev_fpr) * (tpr + prev_tpr) / 2;
    prev_tpr = tpr;
    prev_fpr = fpr;
  }
  return area;
}

}  // namespace assay::core
