#include "recsys/sgd_order.h"

#include <array>
#include <cstring>
#include <utility>

#include "core/rng.h"

namespace assay::recsys {

std::uint64_t sgd_order_key(std::uint64_t seed, UserId user, ItemId item) {
  return core::mix64(core::mix64(seed ^ 0x5367644f72646572ULL) ^
                     ((static_cast<std::uint64_t>(user) << 32) | item));
}

std::vector<Rating> sgd_order(const Ratings& train, std::uint64_t seed) {
  SgdOrder order(train);
  return order.order(seed);
}

std::vector<Rating> shuffled_order(const Ratings& train, std::uint64_t seed) {
  std::vector<Rating> all = train.triplets();
  std::uint64_t fingerprint = 0x4c656e734b697453ULL ^ all.size();
  for (const Rating& r : all) {
    std::uint32_t value_bits = 0;
    std::memcpy(&value_bits, &r.value, sizeof value_bits);
    fingerprint = core::mix64(fingerprint ^ ((static_cast<std::uint64_t>(r.user) << 32) | r.item));
    fingerprint = core::mix64(fingerprint ^ value_bits);
  }
  core::Rng rng(core::derive_seed(seed, fingerprint), 0x5368756666ULL);
  rng.shuffle(all.begin(), all.end());
  return all;
}

SgdOrder::SgdOrder(const Ratings& train)
    : all_(train.triplets()), out_(all_.size()), a_(all_.size()), b_(all_.size()) {}

const std::vector<Rating>& SgdOrder::order(std::uint64_t seed) {
  const std::size_t n = all_.size();
  // (key, canonical position) pairs, sorted by key with an LSD radix sort over six 11-bit
  // digits (the counts stay in L1). Each pass is stable and the input is in position order,
  // so equal keys stay in position order: exactly the order of sorting the pairs, at a
  // fraction of the cost (the SGD trainers ask for one order per epoch).
  constexpr std::size_t kDigits = 6, kBits = 11, kBuckets = std::size_t{1} << kBits;
  constexpr std::uint64_t kMask = kBuckets - 1;
  std::array<std::array<std::uint32_t, kBuckets>, kDigits> counts{};
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t key = sgd_order_key(seed, all_[k].user, all_[k].item);
    a_[k] = {key, static_cast<std::uint32_t>(k)};
    for (std::size_t d = 0; d < kDigits; ++d) ++counts[d][(key >> (kBits * d)) & kMask];
  }
  for (std::size_t d = 0; d < kDigits; ++d) {
    std::uint32_t sum = 0;
    for (std::uint32_t& c : counts[d]) {
      const std::uint32_t here = c;
      c = sum;  // first output slot of the bucket
      sum += here;
    }
    for (const Keyed& e : a_) b_[counts[d][(e.key >> (kBits * d)) & kMask]++] = e;
    std::swap(a_, b_);
  }
  for (std::size_t k = 0; k < n; ++k) out_[k] = all_[a_[k].pos];
  return out_;
}

}  // namespace assay::recsys
