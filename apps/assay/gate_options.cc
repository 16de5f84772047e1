#include "gate_options.h"

#include <cstdio>

#include "option_checks.h"

namespace assay::cli {

void add_gate_options(CLI::App* cmd, GateOptions& o) {
  auto* gate = cmd->add_option(
      "--gate", o.gate, "aeon: score every perturbation with AEON (SemEval, SynEval) and judge it");
  // The gate's settings mean nothing without the gate: each needs --gate.
  cmd->add_option("--gate-action", o.action,
                  "drop (with AEON's reason among the dropped) or flag (keep, mark keep=false); "
                  "default: flag with the offline scores, drop with --gate-model-dir")
      ->needs(gate);
  cmd->add_option("--gate-task", o.task, "AEON thresholds of the task: sa, nli or se")
      ->capture_default_str()
      ->needs(gate);
  add_finite(cmd, "--gate-sim", o.sim, "Override the SemEval threshold")->needs(gate);
  add_finite(cmd, "--gate-nat", o.nat, "Override the SynEval threshold")->needs(gate);
  cmd->add_option("--gate-model-dir", o.model_dir,
                  "A BERT-family folder for AEON (default: offline trigram + WordNet backends)")
      ->needs(gate);
  cmd->add_flag("--gate-exact", o.exact,
                "AEON's exact SynEval normaliser (default: the separable one from precomputed "
                "sums, within 2e-4 relative and faster)")
      ->needs(gate);
  cmd->add_option("--gate-vectors", o.vectors, "Word vectors for AEON's offline SemEval")
      ->needs(gate);
  cmd->add_option("--gate-vectors-format", o.vectors_format, "Their format")
      ->capture_default_str()
      ->needs(gate);
}

void report_gate(const fairness::PerturbationGate& gate, const fairness::FilterCounts& counts,
                 bool quiet) {
  if (!quiet) std::fprintf(stderr, "%s\n", fairness::PerturbationGate::summary(counts).c_str());
  const auto warning = gate.drop_warning(
      counts, "set --gate-sim / --gate-nat, or --gate-action flag (docs/fairness.md)");
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
}

}  // namespace assay::cli
