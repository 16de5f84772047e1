// Genre lists of MovieLens 1M/10M/latest movie files ("Action|Comedy", "(no genres listed)"):
// collected per movie label, then attached to a Ratings store with genre ids in name order.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "recsys/ratings.h"

namespace assay::recsys {

class MovieLensGenres {
 public:
  // Records the '|'-joined genres of the movie `item_label`. "(no genres listed)" is no genre.
  void add(const Ratings& ratings, std::string_view item_label, std::string_view genres);
  // Movies of the file that no rating mentions (skipped: they are not items of the data).
  std::size_t n_unrated() const { return n_unrated_; }
  void attach(Ratings& ratings) const;

 private:
  std::vector<std::pair<ItemId, std::vector<std::string>>> per_item_;
  std::size_t n_unrated_ = 0;
};

}  // namespace assay::recsys
