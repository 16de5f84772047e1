// A hand-made dataset with hand-picked top-k lists whose influence values are worked out in
// influence_test.cc; shared by the influence and heuristic tests.
#pragma once

#include <vector>

#include "recsys/ratings.h"
#include "recsys/recommender.h"

namespace assay::stability::testing {

// 4 users, 5 items, attributes a0 = {i0, i2}, a1 = {i2, i3, i4}.
//   u0: i0=5 i1=3     u1: i0=4 i2=2     u2: i1=1 i3=5     u3: i4=3
inline recsys::Ratings tiny_ratings() {
  auto data = recsys::Ratings::from_triplets(
      {{0, 0, 5}, {0, 1, 3}, {1, 0, 4}, {1, 2, 2}, {2, 1, 1}, {2, 3, 5}, {3, 4, 3}}, 4, 5);
  data.set_item_attributes({{0}, {}, {0, 1}, {1}, {1}}, {"a0", "a1"});
  return data;
}

// Unrated items only; u3 has no recommendations.
inline recsys::TopKLists tiny_top() {
  return {{2, 3, 4}, {1}, {0}, {}};
}

}  // namespace assay::stability::testing
