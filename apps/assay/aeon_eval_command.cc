// `assay aeon eval`: agreement (AP, AUC, PCC) of metric columns of an annotation CSV with the
// human consistency or fluency judgments.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "aeon/human_agreement.h"
#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct AeonEvalOptions {
  std::string annotations;
  std::vector<std::string> metrics;
  std::string target = "consistency";
  std::string dataset;
  std::optional<double> threshold;
  std::string format = "table";
  std::string out;
};

std::string format_value(double v) {
  if (v != v) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

void write_report(std::ostream& os, const std::vector<aeon::MetricAgreement>& results,
                  double threshold, bool json) {
  if (json) {
    for (const auto& r : results) {
      nlohmann::ordered_json j;
      j["metric"] = r.metric;
      j["target"] = std::string(aeon::to_string(r.target));
      j["n"] = r.n;
      j["n_positive"] = r.n_positive;
      j["threshold"] = threshold;
      j["ap"] = r.ap;
      j["auc"] = r.auc;
      j["pcc"] = r.pcc;
      core::write_jsonl(os, j);
    }
    return;
  }
  std::size_t width = 6;
  for (const auto& r : results) width = std::max(width, r.metric.size());
  char line[256];
  std::snprintf(line, sizeof line, "%-*s  %-11s  %5s  %6s  %6s  %6s\n", static_cast<int>(width),
                "metric", "target", "n", "AP", "AUC", "PCC");
  os << line;
  for (const auto& r : results) {
    std::snprintf(line, sizeof line, "%-*s  %-11s  %5zu  %6s  %6s  %6s\n", static_cast<int>(width),
                  r.metric.c_str(), std::string(aeon::to_string(r.target)).c_str(), r.n,
                  format_value(r.ap).c_str(), format_value(r.auc).c_str(),
                  format_value(r.pcc).c_str());
    os << line;
  }
  std::snprintf(line, sizeof line, "(positive: human score >= %g)\n", threshold);
  os << line;
}

int run(const AeonEvalOptions& o) {
  aeon::AnnotationEvalOptions eval;
  eval.metrics = o.metrics;
  eval.target = aeon::parse_judgment_target(o.target);
  if (o.threshold && !o.dataset.empty()) {
    throw core::UsageError("give either --dataset or --threshold, not both");
  }
  if (o.threshold) {
    eval.threshold = *o.threshold;
  } else if (!o.dataset.empty()) {
    eval.threshold = aeon::dataset_threshold(o.dataset);
  } else {
    throw core::UsageError("give --dataset NAME or --threshold T to binarise the human scores");
  }
  const auto results = aeon::evaluate_annotation_file(o.annotations, eval);
  if (o.out.empty()) {
    write_report(std::cout, results, eval.threshold, o.format == "jsonl");
  } else {
    core::AtomicFileWriter writer(o.out);
    write_report(writer.stream(), results, eval.threshold, o.format == "jsonl");
    writer.commit();
  }
  return kOk;
}

void add_aeon_eval_command(CLI::App& aeon, CommandResult& result) {
  auto opts = std::make_shared<AeonEvalOptions>();
  auto* cmd = aeon.add_subcommand(
      "eval", "Agreement (AP, ROC AUC, binned PCC) of metric scores with human judgments");
  cmd->add_option("--annotations", opts->annotations, "Annotation CSV (AEON layout)")->required();
  cmd->add_option("--metric", opts->metrics, "Metric column to evaluate (repeatable)")->required();
  cmd->add_option("--target", opts->target, "Human judgment: consistency or fluency")
      ->capture_default_str();
  cmd->add_option("--dataset", opts->dataset,
                  "Dataset whose threshold binarises the human score: rtmr, yelp, snli, mnli, "
                  "qqp");
  add_finite(cmd, "--threshold", opts->threshold,
             "Explicit threshold: human score >= T is positive");
  cmd->add_option("--format", opts->format, "table, or jsonl: one JSON object per metric")
      ->check(CLI::IsMember({"table", "jsonl"}))
      ->capture_default_str();
  add_output_file(cmd, "--out", opts->out,
                  "Write the report to FILE (atomically) instead of stdout");
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("aeon", "Test-case quality (AEON): score, filter and evaluate", "eval",
                       add_aeon_eval_command)

}  // namespace assay::cli
