// A LightFM-style hybrid (LightFM 1.17 semantics, loss "warp", learning_schedule "adagrad"):
//  - user representation = embedding of the user's identity feature;
//  - item representation = weighted sum of the embeddings of the item's identity feature and
//    its attribute (genre) features, weights normalised to sum to 1 per item (LightFM
//    Dataset's normalize_item_features); item bias likewise;
//  - every rating is a positive interaction (LightFM treats any stored entry as positive);
//  - WARP: for each positive, draw up to 10 negatives uniformly until one violates the margin
//    (score > positive score - 1) and is not a positive of the user; update with loss
//    log(floor((n_items - 1) / n_sampled)), clipped at 10;
//  - adagrad per parameter (accumulators start at 1), learning rate 0.05, no regularisation;
//  - embeddings start uniform in [-0.5, 0.5) / n_components, biases at 0.
// Determinism: each epoch visits positives in the order of a hash of (seed, epoch, user,
// item), and the negatives of a positive come from an Rng stream keyed by that pair, so both
// are pure functions of the pairs. Training is serial (LightFM's Hogwild threads are not
// deterministic); n_threads is ignored.
// Two trainers give the same bits (hybrid_training.h): the reference (one negative at a time,
// scalar loops) and the batched one (negatives scored four at a time, SSE2 rows), the default.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recsys/recommender.h"

namespace assay::recsys {

// Which trainer fit() runs: kAuto takes the batched one where it is compiled in (x86-64).
enum class HybridKernel : std::uint8_t { kAuto, kReference, kBatched };

struct HybridOptions {
  std::size_t n_components = 10;
  std::size_t n_epochs = 30;
  std::size_t max_sampled = 10;
  float learning_rate = 0.05f;
  bool use_attributes = true;  // false: identity features only (pure collaborative WARP)
  HybridKernel kernel = HybridKernel::kAuto;
};

class Hybrid final : public Recommender {
 public:
  explicit Hybrid(HybridOptions options = {}) : options_(options) {}
  std::string name() const override { return "hybrid"; }
  void fit(const Ratings& train, const FitOptions& options) override;
  void score(UserId user, std::span<const ItemId> items, std::span<float> out) const override;
  // The trainer the last fit() ran (kReference or kBatched).
  HybridKernel last_kernel() const { return last_kernel_; }
  // Whether the batched trainer is compiled in (it needs SSE2: every x86-64).
  static bool batched_available();

 private:
  HybridOptions options_;
  HybridKernel last_kernel_ = HybridKernel::kReference;
  std::size_t n_users_ = 0, n_items_ = 0;
  // After fit: user embeddings (n_users x d), item representations (n_items x d), item biases.
  std::vector<float> user_repr_, item_repr_, item_bias_;
};

}  // namespace assay::recsys
