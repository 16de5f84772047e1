// Rating-prediction accuracy of a recommender configuration by k-fold cross-validation: every
// rating falls in fold mix64(seed, user, item) mod k (a pure function of the pair), each fold is
// predicted by the configuration trained on the other folds (ids, labels and attributes kept),
// and RMSE / MAE are over all held-out ratings. A pair the model cannot score (NaN) takes the
// damped bias baseline clamped to the scale, as in docs/recsys.md's accuracy table. Scores are
// used as they are (an unclamped model is judged by what it predicts); the hybrid's scores are
// not ratings, so its figures are not comparable with the others'.
#pragma once

#include <cstdint>
#include <string_view>

#include "recsys/ratings.h"

namespace assay::recsys {

struct CrossValidatedAccuracy {
  double rmse = 0, mae = 0;
  double coverage = 0;  // fraction of held-out ratings the model scored itself
  std::size_t folds = 0;
};

// Throws core::UsageError for a bad spec or folds < 2.
CrossValidatedAccuracy cross_validated_accuracy(const Ratings& data, std::string_view spec,
                                                std::size_t folds, std::uint64_t seed,
                                                std::size_t n_threads = 1);

}  // namespace assay::recsys
