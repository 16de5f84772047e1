// The AEON gate's settings as one table: for each, its name on the command line ("--gate-sim"),
// its key in Python's gate dict ("sim"), where GateSettings holds it (its default is that
// field's in a default GateSettings), its kind and its help. The command line registers its
// --gate… flags from it (apps/assay/gate_options.cc) and the Python module reads gate={...}
// with it (python/fair_bindings.cc), so both take the same settings with the same checks.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "fairness/perturbation_gate.h"

namespace assay::fairness {

// Where a setting lives in GateSettings, and its kind.
template <class T>
struct GateField {
  using type = T;
  T& (*get)(GateSettings&);
  T& operator()(GateSettings& s) const { return get(s); }
};
using GateText = GateField<std::string>;
using GateThreshold = GateField<std::optional<double>>;  // a finite number, or the task's
using GateFlag = GateField<bool>;

struct GateOption {
  std::string_view flag;  // the command line's, without "--": "gate", "gate-sim"
  std::string_view key;   // Python's gate dict: "gate", "sim"
  std::variant<GateText, GateThreshold, GateFlag> field;
  std::string_view help;
  bool show_default = false;  // the command line's help shows the default
};

// Every setting, "gate" first (the others need it).
std::span<const GateOption> gate_option_table();

// The option with this Python key; nullptr when none has it.
const GateOption* find_gate_key(std::string_view key);

// "gate, action, task, ...": the keys, for messages.
std::string gate_keys();

}  // namespace assay::fairness
