// The order in which SGD-trained recommenders visit ratings: ascending hash of
// (seed, user, item). It depends only on the pairs (not on their position in the data), so
// adding or removing one rating does not reorder the others; a different seed gives a
// different order (that is the training noise the noise floor measures).
#pragma once

#include <cstdint>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

std::uint64_t sgd_order_key(std::uint64_t seed, UserId user, ItemId item);

// Every rating of `train` in SGD order (ties of the 64-bit key by canonical position).
std::vector<Rating> sgd_order(const Ratings& train, std::uint64_t seed);

// LensKit's order: the canonical order shuffled (Fisher-Yates) by an Rng seeded from `seed`
// and a fingerprint of every (user, item, value) of `train`, so any change to the data draws
// a new permutation of all ratings, and the same data and seed the same one.
std::vector<Rating> shuffled_order(const Ratings& train, std::uint64_t seed);

// The same orders for many seeds of one data set (one per epoch), reusing its buffers.
class SgdOrder {
 public:
  explicit SgdOrder(const Ratings& train);
  // Valid until the next call.
  const std::vector<Rating>& order(std::uint64_t seed);

 private:
  struct Keyed {
    std::uint64_t key;
    std::uint32_t pos;
  };
  std::vector<Rating> all_, out_;
  std::vector<Keyed> a_, b_;
};

}  // namespace assay::recsys
