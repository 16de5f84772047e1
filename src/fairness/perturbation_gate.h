// The AEON gate as a stage of a fairness run: aeon::PairGate applied to each input's
// perturbations — a perturbation the gate rejects is dropped (with AEON's reason among the
// dropped candidates) or kept and flagged (GateSettings::action; default: flag with the offline
// scores, which do not separate perturbations judged right from wrong, drop with a BERT
// folder). Counts what it scored, kept, dropped and flagged; a gate that drops more than 90 %
// says so. The command line (--gate …) and Python (gate='aeon', …) fill the same settings.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeon/pair_gate.h"
#include "fairness/fairness_run.h"
#include "fairness/perturbation.h"
#include "fairness/perturbator_config.h"
#include "lm/ngram_model.h"

namespace assay::fairness {

struct GateSettings {
  std::string gate;    // "" (no gate) or "aeon"
  std::string action;  // "drop", "flag" or "" (by backend)
  std::string task = "sa";
  std::optional<double> sim, nat;  // thresholds overriding the task's
  std::string model_dir;           // a BERT-family folder; "": the offline backends
  std::string vectors, vectors_format = "glove";
  bool exact = false;  // SynEval's exact normaliser
};

// core::UsageError for a gate other than aeon, an action other than drop or flag, an unknown
// task; before any work.
void check_gate_settings(const GateSettings& s);
// What of the gate decides a run's results, for reuse keys ("" without a gate).
std::string gate_settings_key(const GateSettings& s);
// Whether the offline gate can share the perturbator's CMU trigram (loaded as lm::SphinxTrie).
bool gate_shares_trigram(const GateSettings& s, const std::string& ngram_model);

class PerturbationGate {
 public:
  // `ngram`: the perturbator's trigram when shared (else null: the gate loads its own).
  PerturbationGate(const GateSettings& s, const std::string& wordnet_dir,
                   const lm::NgramModel* ngram);

  // Judges the perturbations of `set` (of `original`); returns the AEON records of those kept,
  // in order, and adds what it did to `counts` when given (and to counts() always).
  // Thread-safe.
  std::vector<nlohmann::ordered_json> apply(const std::string& original, PerturbationSet& set,
                                            FilterCounts* counts = nullptr);
  // apply() as the fairness engine's filter hook (this gate must outlive it).
  PerturbationFilter filter();
  // What apply() did in this process.
  FilterCounts counts() const { return {n_scored_, n_dropped_, n_flagged_}; }
  // "aeon gate: N perturbations scored, K kept, D dropped, F flagged".
  static std::string summary(const FilterCounts& counts);
  // The warning when more than 90 % of `counts` were dropped ("" otherwise), ending with `fix`
  // (how the caller sets the thresholds or the action).
  std::string drop_warning(const FilterCounts& counts, const std::string& fix) const;

 private:
  bool drop_;
  std::unique_ptr<aeon::PairGate> gate_;
  std::atomic<std::size_t> n_scored_{0}, n_dropped_{0}, n_flagged_{0};
};

// The perturbator of `settings` and, with a gate, the gate: loaded side by side, the offline
// gate sharing the perturbator's CMU trigram when it can (gate_shares_trigram). Throws what
// load_perturbator and the gate's backends throw.
struct GatedPerturbator : LoadedPerturbator {
  std::unique_ptr<PerturbationGate> gate;  // null without a gate
};
GatedPerturbator load_gated_perturbator(PerturbatorSettings settings, const GateSettings& gate);

}  // namespace assay::fairness
