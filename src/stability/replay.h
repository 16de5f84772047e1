// Replaying a modification set: apply it to the data, retrain with the recorded model seed and
// compare everyone's top-k with the original training, user by user.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "recsys/ratings.h"
#include "stability/modification_set_file.h"

namespace assay::stability {

struct UserChange {
  recsys::UserId user = 0;
  std::vector<recsys::ItemId> lost;    // in the original top-k, not in the new one (original order)
  std::vector<recsys::ItemId> gained;  // in the new top-k, not in the original (new order)
  bool lost_top1 = false;
};

struct ReplayResult {
  recsys::TopKLists before, after;
  std::array<double, kNumOracles> oracle{};
  std::vector<UserChange> changes;  // users whose list changed as a set, by user id
};

// Throws core::Error when the set does not apply to `data` (e.g. it adds an existing rating).
ReplayResult replay_modification_set(const recsys::Ratings& data,
                                     const std::vector<recsys::Modification>& modifications,
                                     const std::string& algorithm, std::uint64_t model_seed,
                                     std::size_t k, std::size_t n_threads = 1);

}  // namespace assay::stability
