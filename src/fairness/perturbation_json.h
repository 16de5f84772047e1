// The JSON record of one input's perturbations, as `assay fair perturb` writes it (one line
// per input) and `assay fair test` reuses: text, label, mutable, fluency, perturbations (text,
// kind, group, old, new, evidence, spans, fluency, fluency_ratio) and dropped (with reasons).
#pragma once

#include <nlohmann/json.hpp>

#include "fairness/fairness_input.h"
#include "fairness/perturbation.h"

namespace assay::fairness {

nlohmann::ordered_json perturbation_to_json(const Perturbation& p);
nlohmann::ordered_json perturbation_set_to_json(const InputRecord& input,
                                                const PerturbationSet& set,
                                                bool with_dropped = true);

}  // namespace assay::fairness
