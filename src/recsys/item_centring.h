// The item-centred view of a training set that both item-item models start from: each item's
// mean rating, each user's rated items (sorted) with their ratings centred by the item's mean,
// and the norm of each item's centred vector (the cosine's denominator).
#pragma once

#include <cstddef>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

struct ItemCentredRatings {
  std::vector<float> item_mean;           // 0 for an item without ratings
  std::vector<std::size_t> user_offsets;  // n_users + 1
  std::vector<ItemId> user_items;
  std::vector<float> user_centred;  // rating - item_mean, as a float
  std::vector<double> norm;         // sqrt of the sum of squared centred ratings of the item
};

ItemCentredRatings centre_by_item(const Ratings& train);

}  // namespace assay::recsys
