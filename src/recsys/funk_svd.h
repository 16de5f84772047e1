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

// Which SGD loop fit() runs: kSerial, one rating at a time in SGD order, or kBatched, sixteen
// independent updates at a time (schedule_sgd_batches), which needs the AVX-512 kernel: where
// the instruction-set selection (core::cpu_isa(), lowered by ASSAY_ISA) has no AVX-512, every
// choice runs the serial loop. kAuto takes the batches when they are at least three quarters
// full, kBatched whenever they can run. Every choice gives the same bits; tests pin each one.
enum class FunkSvdKernel : std::uint8_t { kAuto, kSerial, kBatched };
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
  // The loop the last fit() ran (kSerial or kBatched).
  FunkSvdKernel last_kernel() const { return last_kernel_; }

 private:
  void fit_serial(const std::vector<Rating>& ordered, const std::vector<float>& estimates);
  void fit_batched(const std::vector<Rating>& ordered, const std::vector<float>& estimates,
                   const SgdBatches& batches);
  float trail_of(std::size_t feature) const;

  FunkSvdOptions options_;
  std::string name_;
  FunkSvdKernel last_kernel_ = FunkSvdKernel::kSerial;
  BiasModel baseline_;
  float low_ = 1, high_ = 5;
  std::size_t n_users_ = 0, n_items_ = 0;
  // Feature-major: user_features_[f * n_users_ + u], item_features_[f * n_items_ + i], so
  // the feature being trained is one contiguous array.
  std::vector<float> user_features_, item_features_;
};

}  // namespace assay::recsys
