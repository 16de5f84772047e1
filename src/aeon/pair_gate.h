// PairGate: AEON's test-case quality as a gate over (original, generated) pairs — the scorer of
// `assay aeon score` (offline trigram SynEval and WordNet SemEval, or a BERT folder) and the
// task's thresholds of `assay aeon filter`, with the thresholds overridable. Any engine that
// generates test cases from originals (the fairness perturbator) asks it which to keep.
// Thread-safe: the offline scorer is, and a BERT scorer is called by one thread at a time.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "aeon/test_case_scorer.h"
#include "aeon/thresholds.h"

namespace assay::aeon {

struct PairGateOptions {
  std::string task = "sa";         // thresholds_for_task
  std::optional<double> sim, nat;  // override the task's SemEval / SynEval thresholds
  TestCaseScorerOptions scorer;
};

struct PairVerdict {
  double semeval = 0, syneval = 0;
  bool keep = true;
  std::string reason;  // empty when kept, as aeon::judge writes it
};

class PairGate {
 public:
  // Loads the scorer (its loaders' errors propagate); a bad task is a core::UsageError.
  explicit PairGate(const PairGateOptions& options);
  ~PairGate();

  PairVerdict judge(const std::string& original, const std::string& generated);
  bool offline() const { return scorer_->offline(); }
  const QualityThresholds& thresholds() const { return thresholds_; }

 private:
  QualityThresholds thresholds_;
  std::unique_ptr<TestCaseScorer> scorer_;
  std::mutex bert_mutex_;
};

}  // namespace assay::aeon
