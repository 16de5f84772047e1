#include "aeon/pair_gate.h"

namespace assay::aeon {

PairGate::PairGate(const PairGateOptions& options)
    : thresholds_(thresholds_for_task(options.task)) {
  if (options.sim) thresholds_.sim = *options.sim;
  if (options.nat) thresholds_.nat = *options.nat;
  scorer_ = std::make_unique<TestCaseScorer>(options.scorer);
}

PairGate::~PairGate() = default;

PairVerdict PairGate::judge(const std::string& original, const std::string& generated) {
  TestCaseScore score;
  if (scorer_->offline()) {
    score = scorer_->score_generated({original, generated, {}});
  } else {
    const std::lock_guard lock(bert_mutex_);
    score = scorer_->score_generated({original, generated, {}});
  }
  const auto verdict = aeon::judge(score.semeval, score.syneval, thresholds_);
  return {score.semeval, score.syneval, verdict.keep, verdict.reason};
}

}  // namespace assay::aeon
