// Agreement of a test-case quality metric with human judgment, computed exactly as the AEON
// reference evaluation script does (../shared/spec/aeon.md, "Evaluation against human
// judgment"): the human score (mean of three 1-5 ratings) is binarised at a per-dataset
// threshold (>= threshold is positive), AP and ROC AUC score the metric as a classifier of the
// positive class, and PCC correlates 0.5-wide human-score bin centres with the mean metric
// score in each bin.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::aeon {

enum class JudgmentTarget { kConsistency, kFluency };

std::string_view to_string(JudgmentTarget target);
// "consistency" or "fluency"; throws core::UsageError otherwise.
JudgmentTarget parse_judgment_target(std::string_view name);

// The reference script's thresholds: rtmr 2.0, yelp 3.0, snli 2.67, mnli 3.25, qqp 3.0.
// Throws core::UsageError naming the known datasets.
double dataset_threshold(std::string_view dataset);
const std::vector<std::string>& known_datasets();

struct MetricAgreement {
  std::string metric;
  JudgmentTarget target = JudgmentTarget::kConsistency;
  std::size_t n = 0;           // annotated cases
  std::size_t n_positive = 0;  // cases with human score >= threshold
  double ap = 0;
  double auc = 0;
  double pcc = 0;
};

// Scores and human judgments of one metric, in file order.
struct JudgedScores {
  std::vector<double> metric;
  std::vector<double> human;  // each in [1, 5]
};

// AP, AUC and PCC for one metric. Precondition: equal lengths, human scores in [1, 5].
MetricAgreement compute_agreement(const std::string& metric_name, JudgmentTarget target,
                                  const JudgedScores& scores, double threshold);

// The reference script's PCC (exposed for tests): bins of width 0.5 from 1.0, index 8 folded
// into 7, empty bins dropped, Pearson r of bin centres against mean metric score.
double binned_pearson(const std::vector<double>& metric, const std::vector<double>& human);

struct AnnotationEvalOptions {
  std::vector<std::string> metrics;  // column names
  JudgmentTarget target = JudgmentTarget::kConsistency;
  double threshold = 2.0;
};

// Reads an annotation CSV (any file with the metric columns and a `consistency` / `fluency`
// column) and evaluates each metric. Throws core::ParseError naming file, line and column for
// a missing column, a non-numeric score, a human score outside [1, 5], or an empty file.
std::vector<MetricAgreement> evaluate_annotation_file(const std::string& path,
                                                      const AnnotationEvalOptions& options);

}  // namespace assay::aeon
