// FunkSVD as in LensKit 3 (FunkSVDItemScorer / FunkSVDModelProvider): features trained one at
// a time by SGD over the residuals of the damped bias baseline plus the already-trained
// features, with LensKit's "trail" term (the assumed contribution of the untrained features,
// init^2 * (remaining features)) and clamping of every intermediate estimate to the scale.
//
// The order in which SGD visits ratings (kStable, the default) is the order of a hash of
// (seed, user, item): a pure function of the pairs, so adding or removing one rating does not
// reorder the others, and the seed changes the order (which is how the noise floor is
// measured). kShuffle is LensKit's behaviour: a fresh permutation of the ratings for every
// training set (a Fisher-Yates shuffle of the canonical order seeded by the fit's seed and a
// fingerprint of every (user, item, value)), so any modification reorders everything, while
// the same data and seed still give the same bits. clamp = false (LensKit without a bound
// preference domain) never clamps: not the baseline, not the estimates, not the scores.
// Training is serial (SGD order matters); n_threads is ignored.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "recsys/bias_model.h"
#include "recsys/recommender.h"
#include "recsys/sgd_batches.h"

namespace assay::recsys {

// Which SGD loop fit() runs: kAuto takes the AVX-512 batches when the CPU has them and they
// are at least three quarters full, kAvx512 takes them whenever the CPU has them. Every
// choice gives the same bits; tests pin each one.
enum class FunkSvdKernel : std::uint8_t { kAuto, kScalar, kAvx512 };
inline constexpr std::size_t kFunkBatchLanes = 16;
enum class FunkSvdOrder : std::uint8_t { kStable, kShuffle };

struct FunkSvdOptions {
  std::size_t n_features = 25;
  std::size_t n_epochs = 125;  // per feature (LensKit's iteration count stopping rule)
  float learning_rate = 0.001f;
  float regularization = 0.015f;
  float initial_value = 0.1f;
  double bias_damping = BiasModel::kDefaultDamping;
  bool clamp = true;  // false: no clamping anywhere (LensKit without a preference domain)
  FunkSvdOrder order = FunkSvdOrder::kStable;
  FunkSvdKernel kernel = FunkSvdKernel::kAuto;
};

class FunkSvd final : public Recommender {
 public:
  explicit FunkSvd(FunkSvdOptions options = {}, std::string name = "funk-svd")
      : options_(options), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  void fit(const Ratings& train, const FitOptions& options) override;
  void score(UserId user, std::span<const ItemId> items, std::span<float> out) const override;

  const FunkSvdOptions& options() const { return options_; }
  // The loop the last fit() ran (kScalar or kAvx512).
  FunkSvdKernel last_kernel() const { return last_kernel_; }

 private:
  void fit_serial(const std::vector<Rating>& ordered, const std::vector<float>& estimates);
  void fit_batched(const std::vector<Rating>& ordered, const std::vector<float>& estimates,
                   const SgdBatches& batches);
  float trail_of(std::size_t feature) const;

  FunkSvdOptions options_;
  std::string name_;
  FunkSvdKernel last_kernel_ = FunkSvdKernel::kScalar;
  BiasModel baseline_;
  float low_ = 1, high_ = 5;
  std::size_t n_users_ = 0, n_items_ = 0;
  // Feature-major: user_features_[f * n_users_ + u], item_features_[f * n_items_ + i], so
  // the feature being trained is one contiguous array.
  std::vector<float> user_features_, item_features_;
};

}  // namespace assay::recsys
