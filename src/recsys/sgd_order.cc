#include "recsys/sgd_order.h"

#include <algorithm>
#include <numeric>

#include "core/rng.h"

namespace assay::recsys {

std::uint64_t sgd_order_key(std::uint64_t seed, UserId user, ItemId item) {
  return core::mix64(core::mix64(seed ^ 0x5367644f72646572ULL) ^
                     ((static_cast<std::uint64_t>(user) << 32) | item));
}

std::vector<Rating> sgd_order(const Ratings& train, std::uint64_t seed) {
  std::vector<Rating> all = train.triplets();
  std::vector<std::uint64_t> keys(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) keys[k] = sgd_order_key(seed, all[k].user, all[k].item);
  std::vector<std::uint32_t> order(all.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return keys[a] != keys[b] ? keys[a] < keys[b] : a < b;
  });
  std::vector<Rating> out(all.size());
  for (std::size_t k = 0; k < order.size(); ++k) out[k] = all[order[k]];
  return out;
}

}  // namespace assay::recsys
