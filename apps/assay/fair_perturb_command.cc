// `assay fair perturb`: MT-NLP's perturbator over a file of inputs — one JSON line per input
// with its perturbations (text and record of each) and the dropped candidates with reasons;
// a summary on stderr. Inputs are read and validated before anything is written.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "command.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/jsonl.h"
#include "core/progress.h"
#include "fairness/fairness_input.h"
#include "fairness/perturb_run.h"
#include "gate_options.h"
#include "input_options.h"
#include "option_checks.h"
#include "perturbation_options.h"

namespace assay::cli {
namespace {

struct FairPerturbOptions {
  InputFileOptions inputs;
  PerturbationOptions perturbation;
  bool no_dropped = false;
  bool quiet = false;
  std::size_t threads = 0;  // 0 = every core
  std::string out;
  GateOptions gate;  // --gate aeon: AEON's test-case quality on every perturbation
};

int run(const FairPerturbOptions& o) {
  (void)text_input_options(o.inputs);  // bad options fail before anything is read
  auto settings = perturbator_settings(o.perturbation);
  fairness::check_gate_settings(o.gate);
  const auto inputs = read_input(o.inputs, &fairness::read_inputs);

  const auto t0 = std::chrono::steady_clock::now();
  const auto loaded = fairness::load_gated_perturbator(std::move(settings), o.gate);
  const double load_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::optional<core::AtomicFileWriter> file;
  if (!o.out.empty()) file.emplace(o.out);
  std::ostream& out = file ? file->stream() : std::cout;
  core::ProgressOptions progress_options;
  progress_options.quiet = o.quiet;
  core::Progress progress("perturb", inputs.size(), progress_options);
  fairness::PerturbRunOptions ro;
  ro.threads = o.threads;
  ro.dropped = !o.no_dropped;
  ro.gate = loaded.gate.get();
  ro.where = [&o](std::size_t, const fairness::InputRecord& input) {
    return core::SourceLocation(o.inputs.input, input.line);
  };
  const auto t1 = std::chrono::steady_clock::now();
  const auto counts =
      fairness::perturb_inputs(*loaded.perturbator, inputs, ro, [&](nlohmann::ordered_json&& j) {
        core::write_jsonl(out, j);
        progress.add();
      });
  progress.finish();
  const double run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  if (file) file->commit();
  if (!o.quiet) {
    std::fprintf(
        stderr, "%s\n",
        fairness::perturb_summary(counts, loaded.perturbator->attribute().name, load_s, run_s)
            .c_str());
  }
  if (loaded.gate) report_gate(*loaded.gate, loaded.gate->counts(), o.quiet);
  return kOk;
}

void add_fair_perturb_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairPerturbOptions>();
  auto* cmd = fair.add_subcommand(
      "perturb", "Perturb inputs with respect to a sensitive attribute (one JSON line per input)");
  add_input_options(cmd, o->inputs);
  add_perturbation_options(cmd, o->perturbation);
  cmd->add_flag("--no-dropped", o->no_dropped, "Leave the dropped candidates out of the output");
  add_output_file(cmd, "--out", o->out, "Write to FILE (atomically) instead of stdout");
  cmd->add_flag("--quiet", o->quiet, "No progress or summary on stderr");
  add_count(cmd, "--threads", o->threads,
            "Threads perturbing (and gating) inputs (0 = every core); outputs do not depend on it",
            {.min = 0, .max = 4'096})
      ->capture_default_str();
  add_gate_options(cmd, o->gate);
  cmd->callback([o, &result] { result.exit_code = run(*o); });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "perturb", add_fair_perturb_command)

}  // namespace assay::cli
