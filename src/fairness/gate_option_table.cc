#include "fairness/gate_option_table.h"

#include <array>

namespace assay::fairness {
namespace {

using S = GateSettings;

#define ASSAY_GATE_FIELD(Kind, member)            \
  Kind {                                          \
    +[](S& s) -> Kind::type& { return s.member; } \
  }

const std::array<GateOption, 9> kOptions{{
    {.flag = "gate",
     .key = "gate",
     .field = ASSAY_GATE_FIELD(GateText, gate),
     .help = "aeon: score every perturbation with AEON (SemEval, SynEval) and judge it"},
    {.flag = "gate-action",
     .key = "action",
     .field = ASSAY_GATE_FIELD(GateText, action),
     .help = "drop (with AEON's reason among the dropped) or flag (keep, mark keep=false); "
             "default: flag with the offline scores, drop with --gate-model-dir"},
    {.flag = "gate-task",
     .key = "task",
     .field = ASSAY_GATE_FIELD(GateText, task),
     .help = "AEON thresholds of the task: sa, nli or se",
     .show_default = true},
    {.flag = "gate-sim",
     .key = "sim",
     .field = ASSAY_GATE_FIELD(GateThreshold, sim),
     .help = "Override the SemEval threshold"},
    {.flag = "gate-nat",
     .key = "nat",
     .field = ASSAY_GATE_FIELD(GateThreshold, nat),
     .help = "Override the SynEval threshold"},
    {.flag = "gate-model-dir",
     .key = "model_dir",
     .field = ASSAY_GATE_FIELD(GateText, model_dir),
     .help = "A BERT-family folder for AEON (default: offline trigram + WordNet backends)"},
    {.flag = "gate-exact",
     .key = "exact",
     .field = ASSAY_GATE_FIELD(GateFlag, exact),
     .help = "AEON's exact SynEval normaliser (default: the separable one from precomputed "
             "sums, within 2e-4 relative and faster)"},
    {.flag = "gate-vectors",
     .key = "vectors",
     .field = ASSAY_GATE_FIELD(GateText, vectors),
     .help = "Word vectors for AEON's offline SemEval"},
    {.flag = "gate-vectors-format",
     .key = "vectors_format",
     .field = ASSAY_GATE_FIELD(GateText, vectors_format),
     .help = "Their format",
     .show_default = true},
}};

#undef ASSAY_GATE_FIELD

}  // namespace

std::span<const GateOption> gate_option_table() {
  return kOptions;
}

const GateOption* find_gate_key(std::string_view key) {
  for (const auto& o : kOptions) {
    if (o.key == key) return &o;
  }
  return nullptr;
}

std::string gate_keys() {
  std::string s;
  for (const auto& o : kOptions) s += (s.empty() ? "" : ", ") + std::string(o.key);
  return s;
}

}  // namespace assay::fairness
