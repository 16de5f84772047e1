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
// Up to max_dense_users users (16384) the similarity matrix is dense (n_users^2 floats, computed at
// fit); above, a user's row is computed when the user is scored (the same sums in the same order,
// so the same bits; memory O(n_users) per thread, and scoring every user costs what the dense fit
// would: sum over items of n_i^2). No randomness; n_threads parallelises the similarity rows
// without changing a bit.
#pragma once

#include <string>
#include <vector>

#include "core/huge_array.h"
#include "recsys/recommender.h"

namespace assay::recsys {

struct UserUserOptions {
  std::size_t n_neighbors = 20;
  float min_similarity = 1e-6f;
  // Above this many users the rows are computed when scored (lowered by tests).
  std::size_t max_dense_users = 16384;
};

class UserUser final : public Recommender {
 public:
  explicit UserUser(UserUserOptions options = {}) : options_(options) {}
  std::string name() const override { return "user-user"; }
  // Throws core::UsageError when n_neighbors is 0.
  void fit(const Ratings& train, const FitOptions& options) override;
  void score(UserId user, std::span<const ItemId> items, std::span<float> out) const override;

  // The dense matrix's entry (only when the data had at most max_dense_users users).
  float similarity(UserId a, UserId b) const { return sim_[a * n_users_ + b]; }

 private:
  UserUserOptions options_;
  std::size_t n_users_ = 0, n_items_ = 0;
  std::vector<float> user_mean_;
  std::vector<double> norm_;  // of each user's centred ratings
  // Row u of the similarity matrix into row[0..n_users) (acc: scratch of n_users doubles).
  void similarity_row(UserId u, std::vector<double>& acc, float* row) const;
  // Row-major n_users x n_users (empty above max_dense_users users); 0 on the diagonal and below
  // threshold. A HugeArray: rebuilt at every fit, and huge pages save most of its page faults.
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
