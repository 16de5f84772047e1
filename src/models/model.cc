#include "models/model.h"

#include "core/check.h"

namespace assay::models {

Model::~Model() = default;

std::size_t argmax(const std::vector<double>& scores) {
  ASSAY_CHECK(!scores.empty());
  std::size_t best = 0;
  for (std::size_t i = 1; i < scores.size(); ++i) {
    if (scores[i] > scores[best]) best = i;
  }
  return best;
}

}  // namespace assay::models
