#include "recsys/sgd_order.h"

#include <algorithm>
#include <utility>

#include "core/rng.h"

namespace assay::recsys {

std::uint64_t sgd_order_key(std::uint64_t seed, UserId user, ItemId item) {
  return core::mix64(core::mix64(seed ^ 0x5367644f72646572ULL) ^
                     ((static_cast<std::uint64_t>(user) << 32) | item));
}

std::vector<Rating> sgd_order(const Ratings& train, std::uint64_t seed) {
  std::vector<Rating> all = train.triplets();
  // (key, canonical position) pairs sort directly (no indirection), ties by position.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    keyed[k] = {sgd_order_key(seed, all[k].user, all[k].item), static_cast<std::uint32_t>(k)};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<Rating> out(all.size());
  for (std::size_t k = 0; k < keyed.size(); ++k) out[k] = all[keyed[k].second];
  return out;
}

}  // namespace assay::recsys
