// User-user collaborative filtering with LensKit 3 semantics (UserUserItemScorer, lkpy
// UserUser):
//  - ratings are centred by the user's mean rating;
//  - similarity = cosine of the centred user vectors, kept only when > kMinSimilarity (1e-6);
//  - score(u, i) = mean_u + sum_v sim(u,v) (r_vi - mean_v) / sum_v sim(u,v) over the 20 users
//    v who rated i most similar to u (at least 1; otherwise unscorable: NaN).
// The weighted sum runs over the chosen neighbours from most to least similar (ties: smaller
// id first), whichever of the two scoring paths is taken (per item for short item lists; a
// walk over the user's neighbours, most similar first, for long ones), so both give the same
// bits.
// The similarity matrix is dense (n_users^2 floats), limited to kMaxUsers. No randomness;
// n_threads parallelises the similarity rows without changing a bit.
#pragma once

#include <string>
#include <vector>

#include "core/huge_array.h"
#include "recsys/recommender.h"

namespace assay::recsys {

struct UserUserOptions {
  std::size_t n_neighbors = 20;
  float min_similarity = 1e-6f;
};

class UserUser final : public Recommender {
 public:
  static constexpr std::size_t kMaxUsers = 16384;

  explicit UserUser(UserUserOptions options = {}) : options_(options) {}
  std::string name() const override { return "user-user"; }
  // Throws core::UsageError when the data has more than kMaxUsers users or n_neighbors is 0.
  void fit(const Ratings& train, const FitOptions& options) override;
  void score(UserId user, std::span<const ItemId> items, std::span<float> out) const override;

  float similarity(UserId a, UserId b) const { return sim_[a * n_users_ + b]; }

 private:
  UserUserOptions options_;
  std::size_t n_users_ = 0, n_items_ = 0;
  std::vector<float> user_mean_;
  // Row-major n_users x n_users; 0 on the diagonal and below threshold. A HugeArray: rebuilt at
  // every fit, and huge pages save most of its page faults.
  core::HugeArray<float> sim_;
  // Each item's raters (sorted) and their ratings centred by user mean.
  std::vector<std::size_t> item_offsets_;
  std::vector<UserId> item_users_;
  std::vector<float> item_centred_;
  // The same centred ratings by user (rated items sorted), for the neighbour walk.
  std::vector<std::size_t> user_offsets_;
  std::vector<ItemId> user_items_;
  std::vector<float> user_centred_;
};

}  // namespace assay::recsys
