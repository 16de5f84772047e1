#include "gate_options.h"

#include <cstdio>
#include <string>
#include <variant>

#include "core/overloaded.h"
#include "fairness/gate_option_table.h"
#include "option_checks.h"

namespace assay::cli {

void add_gate_options(CLI::App* cmd, GateOptions& o) {
  CLI::Option* gate = nullptr;
  for (const auto& spec : fairness::gate_option_table()) {
    const std::string name = "--" + std::string(spec.flag);
    const std::string help(spec.help);
    auto* option =
        std::visit(core::Overloaded{
                       [&](fairness::GateText f) { return cmd->add_option(name, f(o), help); },
                       [&](fairness::GateThreshold f) { return add_finite(cmd, name, f(o), help); },
                       [&](fairness::GateFlag f) { return cmd->add_flag(name, f(o), help); },
                   },
                   spec.field);
    if (spec.show_default) option->capture_default_str();
    // The gate's settings mean nothing without the gate: each needs --gate.
    if (gate) option->needs(gate);
    if (spec.key == "gate") gate = option;
  }
}

void report_gate(const fairness::PerturbationGate& gate, const fairness::FilterCounts& counts,
                 bool quiet) {
  if (!quiet) std::fprintf(stderr, "%s\n", fairness::PerturbationGate::summary(counts).c_str());
  const auto warning = gate.drop_warning(
      counts, "set --gate-sim / --gate-nat, or --gate-action flag (docs/fairness.md)");
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
}

}  // namespace assay::cli
