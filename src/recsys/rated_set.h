// "Has user u rated item i?" asked millions of times with random items (the hybrid's WARP
// sampling): a user x item bit matrix when it is small enough (one load instead of a chain
// of dependent ones), else a branch-free lower bound over the user's sorted row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

// Whether sorted[0..n) holds x: a lower bound with a conditional move instead of a branch per
// step (random queries mispredict a branchy search at about every step).
inline bool contains_sorted(const ItemId* sorted, std::size_t n, ItemId x) {
  if (n == 0) return false;
  const ItemId* base = sorted;
  while (n > 1) {
    const std::size_t half = n / 2;
    base = base[half] <= x ? base + half : base;
    n -= half;
  }
  return *base == x;
}

class RatedSet {
 public:
  static constexpr std::size_t kDefaultMaxBits = std::size_t{1} << 28;  // 32 MiB

  // Keeps a reference to `train`. The bit matrix is built when users x items <= max_bits.
  explicit RatedSet(const Ratings& train, std::size_t max_bits = kDefaultMaxBits) : train_(train) {
    if (train.n_users() * train.n_items() > max_bits) return;
    words_per_user_ = (train.n_items() + 63) / 64;
    bits_.assign(train.n_users() * words_per_user_, 0);
    for (UserId u = 0; u < train.n_users(); ++u) {
      for (ItemId i : train.items_of(u)) {
        bits_[u * words_per_user_ + i / 64] |= std::uint64_t{1} << (i % 64);
      }
    }
  }

  bool uses_bit_matrix() const { return !bits_.empty(); }

  bool contains(UserId u, ItemId i) const {
    if (!bits_.empty()) return (bits_[u * words_per_user_ + i / 64] >> (i % 64)) & 1;
    const auto rated = train_.items_of(u);
    return contains_sorted(rated.data(), rated.size(), i);
  }

 private:
  const Ratings& train_;
  std::size_t words_per_user_ = 0;
  std::vector<std::uint64_t> bits_;
};

}  // namespace assay::recsys
