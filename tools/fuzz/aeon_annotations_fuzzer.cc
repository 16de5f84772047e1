// libFuzzer target: the AEON annotation CSV reader behind `assay aeon eval`
// (aeon::evaluate_annotation_file) with metric columns SemEval and SynEval. The first input
// byte picks the judgment target (consistency or fluency); the rest is the file. Results that
// are returned must have probabilities in [0, 1] (AP, AUC) or NaN, and PCC in [-1, 1] or NaN.
// Run: tools/fuzz/run.sh aeon_annotations
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "aeon/human_agreement.h"
#include "core/error.h"
#include "fuzz_input.h"

namespace {

bool in_range_or_nan(double v, double lo, double hi) {
  return std::isnan(v) || (v >= lo - 1e-9 && v <= hi + 1e-9);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  assay::aeon::AnnotationEvalOptions options;
  options.metrics = {"SemEval", "SynEval"};
  options.target = (data[0] & 1) ? assay::aeon::JudgmentTarget::kFluency
                                 : assay::aeon::JudgmentTarget::kConsistency;
  options.threshold = (data[0] & 2) ? 3.0 : 2.0;
  const std::string& path = assay::fuzz::write_input(data + 1, size - 1, "annotations.csv");
  try {
    for (const auto& m : assay::aeon::evaluate_annotation_file(path, options)) {
      if (m.n_positive > m.n) std::abort();
      if (!in_range_or_nan(m.ap, 0, 1) || !in_range_or_nan(m.auc, 0, 1) ||
          !in_range_or_nan(m.pcc, -1, 1)) {
        std::abort();
      }
    }
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
