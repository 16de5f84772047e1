#include "aeon/human_agreement.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "core/check.h"
#include "core/csv_reader.h"
#include "core/error.h"
#include "core/ranking_metrics.h"
#include "core/summary_stats.h"

namespace assay::aeon {
namespace {
struct DatasetThreshold {
  const char* name;
  double threshold;
};
constexpr std::array<DatasetThreshold, 5> kThresholds{
    {{"rtmr", 2.0}, {"yelp", 3.0}, {"snli", 2.67}, {"mnli", 3.25}, {"qqp", 3.0}}};
constexpr int kBins = 8;
}  // namespace

std::string_view to_string(JudgmentTarget target) {
  return target == JudgmentTarget::kConsistency ? "consistency" : "fluency";
}

JudgmentTarget parse_judgment_target(std::string_view name) {
  if (name == "consistency") return JudgmentTarget::kConsistency;
  if (name == "fluency") return JudgmentTarget::kFluency;
  throw core::UsageError("unknown target '" + std::string(name) +
                         "'; expected 'consistency' or 'fluency'");
}

const std::vector<std::string>& known_datasets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& t : kThresholds) v.emplace_back(t.name);
    return v;
  }();
  return names;
}

double dataset_threshold(std::string_view dataset) {
  for (const auto& t : kThresholds) {
    if (dataset == t.name) return t.threshold;
  }
  std::string known;
  for (const auto& t : kThresholds) known += std::string(known.empty() ? "" : ", ") + t.name;
  throw core::UsageError("unknown dataset '" + std::string(dataset) + "'; expected one of " +
                         known + " (or give --threshold)");
}

double binned_pearson(const std::vector<double>& metric, const std::vector<double>& human) {
  ASSAY_CHECK(metric.size() == human.size());
  std::array<double, kBins> sum{};
  std::array<std::size_t, kBins> count{};
  for (std::size_t i = 0; i < human.size(); ++i) {
    int bin = static_cast<int>(std::floor((human[i] - 1.0) / 0.5));
    bin = std::clamp(bin, 0, kBins - 1);
    sum[static_cast<std::size_t>(bin)] += metric[i];
    ++count[static_cast<std::size_t>(bin)];
  }
  std::vector<double> centres, means;
  for (int b = 0; b < kBins; ++b) {
    const auto k = static_cast<std::size_t>(b);
    if (count[k] == 0) continue;
    centres.push_back(1.0 + 0.5 * b);
    means.push_back(sum[k] / static_cast<double>(count[k]));
  }
  return core::pearson(centres, means);
}

MetricAgreement compute_agreement(const std::string& metric_name, JudgmentTarget target,
                                  const JudgedScores& scores, double threshold) {
  ASSAY_CHECK(scores.metric.size() == scores.human.size());
  MetricAgreement r;
  r.metric = metric_name;
  r.target = target;
  r.n = scores.metric.size();
  std::unique_ptr<bool[]> labels(new bool[r.n]);
  for (std::size_t i = 0; i < r.n; ++i) {
    labels[i] = scores.human[i] >= threshold;
    r.n_positive += labels[i] ? 1 : 0;
  }
  const std::span<const bool> label_span(labels.get(), r.n);
  r.ap = core::average_precision(scores.metric, label_span);
  r.auc = core::roc_auc(scores.metric, label_span);
  r.pcc = binned_pearson(scores.metric, scores.human);
  return r;
}

std::vector<MetricAgreement> evaluate_annotation_file(const std::string& path,
                                                      const AnnotationEvalOptions& options) {
  if (options.metrics.empty()) throw core::UsageError("no metric column given");
  core::CsvReader csv(path);
  const std::string target_name(to_string(options.target));
  const std::size_t target_col = csv.column(target_name);
  std::vector<std::size_t> metric_cols;
  for (const auto& m : options.metrics) metric_cols.push_back(csv.column(m));

  std::vector<JudgedScores> scores(options.metrics.size());
  while (csv.next()) {
    const double human = csv.number(target_col, "the human score '" + target_name + "'");
    if (human < 1.0 || human > 5.0) {
      throw core::ParseError(csv.location(target_col),
                             "expected a human score between 1 and 5 in column '" + target_name +
                                 "', got " + csv.field(target_col));
    }
    for (std::size_t k = 0; k < metric_cols.size(); ++k) {
      scores[k].metric.push_back(
          csv.number(metric_cols[k], "the metric score '" + options.metrics[k] + "'"));
      scores[k].human.push_back(human);
    }
  }
  if (scores.front().metric.empty()) {
    throw core::ParseError(core::SourceLocation{path, 2, 0, std::nullopt},
                           "no annotated cases; expected at least one row after the header");
  }
  std::vector<MetricAgreement> out;
  for (std::size_t k = 0; k < metric_cols.size(); ++k) {
    out.push_back(
        compute_agreement(options.metrics[k], options.target, scores[k], options.threshold));
  }
  return out;
}

}  // namespace assay::aeon
