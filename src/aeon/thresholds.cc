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

std::string drop_warning(std::string_view who, std::size_t dropped, std::size_t scored,
                         std::string_view unit, const QualityThresholds& t,
                         std::string_view backend, std::string_view advice) {
  if (scored == 0 || dropped * 10 <= scored * 9) return "";
  char buf[128];
  std::snprintf(buf, sizeof buf, " (%.0f%%); its thresholds (SemEval >= %g, SynEval >= %g)",
                100.0 * static_cast<double>(dropped) / static_cast<double>(scored), t.sim, t.nat);
  std::string w = "warning: ";
  w += who;
  w += " dropped " + std::to_string(dropped) + " of " + std::to_string(scored) + " ";
  w += unit;
  w += buf;
  w += " may not suit the ";
  w += backend;
  w += " scores: ";
  w += advice;
  return w;
}

}  // namespace assay::aeon
