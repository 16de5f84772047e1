// `assay aeon filter`: splits scored test cases (JSON lines from `assay aeon score`) into kept
// and dropped by AEON's thresholds for the task, recording why each dropped case failed.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "aeon/thresholds.h"
#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/output_path.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

struct AeonFilterOptions {
  std::string scores;
  std::string task;
  std::optional<double> sim_threshold, nat_threshold;
  std::string kept, dropped;
};

double score_field(const nlohmann::json& j, const char* key, const core::SourceLocation& where) {
  const auto& v = core::require_key(j, key, where);
  if (v.is_null()) return std::nan("");
  if (!v.is_number())
    throw core::ParseError(where, std::string("field '") + key + "' is not a number");
  return v.get<double>();
}

int run(const AeonFilterOptions& o) {
  aeon::QualityThresholds t = aeon::thresholds_for_task(o.task);
  if (o.sim_threshold) t.sim = *o.sim_threshold;
  if (o.nat_threshold) t.nat = *o.nat_threshold;
  core::check_distinct_outputs({{"--kept", o.kept}, {"--dropped", o.dropped}});
  core::AtomicFileWriter kept(o.kept), dropped(o.dropped);
  core::JsonlReader reader(o.scores);
  nlohmann::json j;
  std::size_t n_kept = 0, n_dropped = 0;
  bool offline = false;  // some line's SynEval came from the offline backend (`aeon score`)
  while (reader.next(j)) {
    if (!j.is_object()) throw core::ParseError(reader.location(), "expected a JSON object");
    if (const auto b = j.find("syneval_backend"); b != j.end() && b->is_string())
      offline |= b->get<std::string>().rfind("bert", 0) != 0;
    const auto v = aeon::judge(score_field(j, "SemEval", reader.location()),
                               score_field(j, "SynEval", reader.location()), t);
    nlohmann::ordered_json out;
    for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = it.value();
    if (v.keep) {
      core::write_jsonl(kept.stream(), out);
      ++n_kept;
    } else {
      out["reason"] = v.reason;
      core::write_jsonl(dropped.stream(), out);
      ++n_dropped;
    }
  }
  core::commit_together({&kept, &dropped});  // both outputs or neither
  std::cout << "kept " << n_kept << ", dropped " << n_dropped << " (task " << o.task
            << ": SemEval >= " << t.sim << ", SynEval >= " << t.nat << ")\n";
  // AEON's thresholds are BERT's: on the offline scores they drop nearly everything.
  const auto warning = aeon::drop_warning(
      "aeon filter", n_dropped, n_kept + n_dropped, "cases", t, offline ? "offline" : "given",
      "set --sim-threshold / --nat-threshold (docs/aeon-offline.md)");
  if (!warning.empty()) std::cerr << warning << "\n";
  return n_dropped > 0 ? kFailuresFound : kOk;
}

void add_aeon_filter_command(CLI::App& aeon, CommandResult& result) {
  auto opts = std::make_shared<AeonFilterOptions>();
  auto* cmd = aeon.add_subcommand(
      "filter",
      "Keep test cases above AEON's thresholds, drop the rest with the reason; exits 1 when any "
      "case is dropped, 0 when all are kept");
  cmd->add_option("--scores", opts->scores, "JSON lines from `assay aeon score`")->required();
  cmd->add_option("--task", opts->task,
                  "sa (SemEval >= 0.87), nli (0.90) or se (0.91); SynEval >= 0.21")
      ->required();
  add_finite(cmd, "--sim-threshold", opts->sim_threshold, "Override the SemEval threshold");
  add_finite(cmd, "--nat-threshold", opts->nat_threshold, "Override the SynEval threshold");
  add_output_file(cmd, "--kept", opts->kept, "Output JSON lines of kept cases")->required();
  add_output_file(cmd, "--dropped", opts->dropped,
                  "Output JSON lines of dropped cases, with \"reason\"")
      ->required();
  cmd->callback([opts, &result] { result.exit_code = run(*opts); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("aeon", "Test-case quality (AEON): score, filter and evaluate", "filter",
                       add_aeon_filter_command)

}  // namespace assay::cli
