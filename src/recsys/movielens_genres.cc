#include "recsys/movielens_genres.h"

#include <algorithm>
#include <map>

namespace assay::recsys {

void MovieLensGenres::add(const Ratings& ratings, std::string_view item_label,
                          std::string_view genres) {
  const auto item = ratings.find_item(std::string(item_label));
  if (!item) {
    ++n_unrated_;
    return;
  }
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= genres.size()) {
    const std::size_t bar = genres.find('|', start);
    const auto name = genres.substr(start, bar == std::string_view::npos ? bar : bar - start);
    if (!name.empty() && name != "(no genres listed)") names.emplace_back(name);
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  per_item_.emplace_back(*item, std::move(names));
}

void MovieLensGenres::attach(Ratings& ratings) const {
  std::map<std::string, AttributeId> ids;
  for (const auto& [item, names] : per_item_) {
    for (const auto& n : names) ids.emplace(n, 0);
  }
  std::vector<std::string> names;
  for (auto& [name, id] : ids) {
    id = static_cast<AttributeId>(names.size());
    names.push_back(name);
  }
  std::vector<std::vector<AttributeId>> per_item(ratings.n_items());
  for (const auto& [item, item_names] : per_item_) {
    for (const auto& n : item_names) per_item[item].push_back(ids.at(n));
  }
  ratings.set_item_attributes(std::move(per_item), std::move(names));
}

}  // namespace assay::recsys
