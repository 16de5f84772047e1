// A reordering of one SGD epoch into batches of independent updates, so that a vector unit can
// run a batch's updates side by side and still give the serial order's bits.
//
// An SGD update of rating (u, i) reads and writes only user u's and item i's parameters, so two
// updates that share neither the user nor the item commute exactly: swapping them changes no
// bit. Any order that keeps, for every user and every item, its updates in their original
// relative order therefore gives the same parameters after the epoch as the original order.
// The schedule below is such an order, cut into batches of `lanes` updates where no two share a
// user or an item; a resource used in batch b is not used again before batch b + gap, so one
// batch's stores never feed the next batch's loads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

struct SgdBatches {
  static constexpr std::uint32_t kPadding = 0xffffffffu;
  std::size_t lanes = 0;
  std::size_t n_batches = 0;
  // lanes * n_batches positions into the original order; kPadding marks an empty lane.
  std::vector<std::uint32_t> positions;
  std::size_t filled() const { return positions.size() - padding; }
  std::size_t padding = 0;
};

// Greedy list scheduling with a look-ahead of `window` pending updates: each batch takes, in
// original order, the pending updates whose user and item no earlier pending update uses, are
// not yet in the batch, and were last used `gap` or more batches ago. When nothing qualifies
// the oldest pending update goes alone (it is always safe to order). O(n * window) at worst.
SgdBatches schedule_sgd_batches(std::span<const Rating> ordered, std::size_t n_users,
                                std::size_t n_items, std::size_t lanes = 16, std::size_t gap = 2,
                                std::size_t window = 256);

}  // namespace assay::recsys
