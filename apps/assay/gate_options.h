// The --gate options of `fair perturb`, `fair test`, `fair mitigate` and `fair serve` (one
// vocabulary), filling the library's fairness::GateSettings (the gate itself is the fairness
// library's PerturbationGate), and the gate's lines on stderr.
#pragma once

#include <CLI/CLI.hpp>

#include "fairness/perturbation_gate.h"

namespace assay::cli {

using GateOptions = fairness::GateSettings;

void add_gate_options(CLI::App* cmd, GateOptions& o);

// "aeon gate: N perturbations scored, K kept, D dropped, F flagged" on stderr unless `quiet`;
// the warning when more than 90 % were dropped whatever `quiet` says.
void report_gate(const fairness::PerturbationGate& gate, const fairness::FilterCounts& counts,
                 bool quiet);

}  // namespace assay::cli
