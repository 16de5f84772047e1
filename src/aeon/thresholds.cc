#include "aeon/thresholds.h"

#include <cstdio>

#include "core/error.h"

namespace assay::aeon {

QualityThresholds thresholds_for_task(std::string_view task) {
  if (task == "sa") return {0.87, 0.21};
  if (task == "nli") return {0.90, 0.21};
  if (task == "se") return {0.91, 0.21};
  throw core::UsageError("unknown task '" + std::string(task) +
                         "' (expected sa: sentiment analysis, nli: natural language inference, "
                         "se: semantic equivalence)");
}

QualityVerdict judge(double sim, double nat, const QualityThresholds& t) {
  QualityVerdict v;
  char buf[96];
  if (!(sim >= t.sim)) {
    std::snprintf(buf, sizeof buf, "SemEval %.3f < %g", sim, t.sim);
    v.reason = buf;
  }
  if (!(nat >= t.nat)) {
    std::snprintf(buf, sizeof buf, "SynEval %.3f < %g", nat, t.nat);
    v.reason += (v.reason.empty() ? "" : "; ") + std::string(buf);
  }
  v.keep = v.reason.empty();
  return v;
}

}  // namespace assay::aeon
