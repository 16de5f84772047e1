// The --gate options of `fair perturb`, `fair test` and `fair mitigate` (one vocabulary) and
// FairGate: aeon::PairGate applied to each input's perturbations — a perturbation the gate
// rejects is dropped (with AEON's reason among the dropped candidates) or kept and flagged
// (--gate-action; default: flag with the offline scores, which do not separate perturbations
// judged right from wrong, drop with a BERT folder). Counts what it scored, kept, dropped and
// flagged; a gate that drops more than 90 % says so on stderr. Thread-safe.
#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeon/pair_gate.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/perturbation.h"
#include "lm/ngram_model.h"

namespace assay::cli {

struct GateOptions {
  std::string gate;    // "" or "aeon"
  std::string action;  // drop, flag or "" (by backend)
  std::string task = "sa";
  std::optional<double> sim, nat;
  std::string model_dir, vectors, vectors_format = "glove";
  bool exact = false;
};

void add_gate_options(CLI::App* cmd, GateOptions& o);
// Usage errors (exit 2) for a bad --gate, --gate-action or --gate-task, before any work.
void check_gate_options(const GateOptions& o);
// What of the gate decides a run's results, for cache keys ("" without --gate).
std::string gate_settings(const GateOptions& o);
// Whether the offline gate can share the perturbator's CMU trigram (loaded as lm::SphinxTrie).
bool gate_shares_trigram(const GateOptions& o, const std::string& ngram_model);

class FairGate {
 public:
  // `ngram`: the perturbator's trigram when shared (else null: the gate loads its own).
  FairGate(const GateOptions& o, const std::string& wordnet_dir, const lm::NgramModel* ngram);

  // Judges the perturbations of `set` (of `original`); returns the AEON records of those kept,
  // in order, and adds what it did to `counts` when given (and to counts() always).
  std::vector<nlohmann::ordered_json> apply(const std::string& original,
                                            fairness::PerturbationSet& set,
                                            fairness::FilterCounts* counts = nullptr);
  // apply() as the fairness engine's filter hook (this gate must outlive it).
  fairness::PerturbationFilter filter();
  // What apply() did in this process.
  fairness::FilterCounts counts() const { return {n_scored_, n_dropped_, n_flagged_}; }
  // "aeon gate: N perturbations scored, K kept, D dropped, F flagged" unless `quiet`; the
  // warning when more than 90 % were dropped whatever `quiet` says.
  void report(const fairness::FilterCounts& counts, bool quiet) const;

 private:
  bool drop_;
  std::unique_ptr<aeon::PairGate> gate_;
  std::atomic<std::size_t> n_scored_{0}, n_dropped_{0}, n_flagged_{0};
};

}  // namespace assay::cli
