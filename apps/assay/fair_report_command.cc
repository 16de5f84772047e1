// `assay fair report`: one HTML page from the directories `fair test` and `fair mitigate`
// wrote, one --in per (model, attribute) run (fairness/fairness_report.h). Every directory is read
// and checked before anything is written; the page is written atomically.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "fairness/fairness_report.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct FairReportOptions {
  std::vector<std::string> in;
  std::string out;
  std::size_t examples = 8;
  bool quiet = false;
};

int run(const FairReportOptions& o) {
  std::vector<fairness::ReportRun> runs;
  for (const auto& dir : o.in) {
    if (dir.empty()) throw core::UsageError("--in: expected a directory, got an empty name");
    runs.push_back(fairness::read_report_run(dir));
  }
  // Two directories with the same base name get their position added, so rows stay apart.
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (runs[j].name == runs[i].name) {
        runs[i].name += " (" + std::to_string(i + 1) + ")";
        break;
      }
    }
  }
  fairness::FairnessReportOptions options;
  options.examples_per_model = o.examples;
  core::write_file_atomically(o.out, fairness::fairness_report_html(runs, options));
  if (!o.quiet)
    std::fprintf(stderr, "fair report: %zu run%s -> %s\n", runs.size(), runs.size() == 1 ? "" : "s",
                 o.out.c_str());
  return kOk;
}

void add_fair_report_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairReportOptions>();
  auto* cmd = fair.add_subcommand(
      "report",
      "HTML report of fair test / fair mitigate results: a headline in words, violations per "
      "model, the substitutions that flip labels, examples, Fig. 4 and Fig. 5");
  auto* in = cmd->add_option("--in", o->in,
                             "A directory fair test and/or fair mitigate wrote (--out), one per "
                             "(model, attribute) run; repeat for several runs")
                 ->required();
  set_path_role(in, PathRole::kInputDirectory,
                {"summary.json", "violations.jsonl", "mitigation.json", "mitigation.csv"});
  add_output_file(cmd, "--out", o->out, "The HTML file to write")->required();
  add_count(cmd, "--examples", o->examples, "Example violations per model (Table 2)",
            {.min = 0, .max = 1000});
  cmd->add_flag("--quiet", o->quiet, "No summary on stderr");
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "report", add_fair_report_command)

}  // namespace assay::cli
