#include "recsys/accuracy.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "recsys/bias_model.h"
#include "recsys/recommender.h"

namespace assay::recsys {

CrossValidatedAccuracy cross_validated_accuracy(const Ratings& data, std::string_view spec,
                                                std::size_t folds, std::uint64_t seed,
                                                std::size_t n_threads) {
  if (folds < 2) throw core::UsageError("cross-validation needs at least 2 folds");
  auto model = make_recommender(spec);
  const std::vector<Rating> all = data.triplets();
  std::vector<std::size_t> fold_of(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    const std::uint64_t pair = (static_cast<std::uint64_t>(all[k].user) << 32) | all[k].item;
    fold_of[k] = core::mix64(core::mix64(seed ^ 0x4163637572616379ULL) ^ pair) % folds;
  }
  const auto lo = static_cast<double>(data.scale().low);
  const auto hi = static_cast<double>(data.scale().high);
  double se = 0, ae = 0, scored = 0, n = 0;
  for (std::size_t f = 0; f < folds; ++f) {
    std::vector<Modification> held_out;
    std::vector<Rating> test;
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (fold_of[k] != f) continue;
      held_out.push_back({Modification::Kind::kRemove, all[k].user, all[k].item, 0});
      test.push_back(all[k]);
    }
    const Ratings train = data.apply(held_out);
    const BiasModel fallback = BiasModel::fit(train);
    model->fit(train, {seed, n_threads});
    for (const Rating& r : test) {
      float p = std::nanf("");
      model->score(r.user, std::span<const ItemId>(&r.item, 1), std::span<float>(&p, 1));
      double prediction = p;
      if (std::isnan(p)) {
        prediction = std::clamp(fallback.predict(r.user, r.item), lo, hi);
      } else {
        scored += 1;
      }
      const double e = prediction - r.value;
      se += e * e;
      ae += std::abs(e);
      n += 1;
    }
  }
  CrossValidatedAccuracy a;
  a.folds = folds;
  if (n > 0) {
    a.rmse = std::sqrt(se / n);
    a.mae = ae / n;
    a.coverage = scored / n;
  }
  return a;
}

}  // namespace assay::recsys
