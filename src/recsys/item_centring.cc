#include "recsys/item_centring.h"

#include <cmath>

namespace assay::recsys {

ItemCentredRatings centre_by_item(const Ratings& train) {
  const std::size_t n_users = train.n_users(), n_items = train.n_items();
  ItemCentredRatings c;
  c.item_mean.assign(n_items, 0.0f);
  for (ItemId i = 0; i < n_items; ++i) {
    const auto values = train.values_of_item(i);
    double s = 0;
    for (float v : values) s += v;
    c.item_mean[i] =
        values.empty() ? 0.0f : static_cast<float>(s / static_cast<double>(values.size()));
  }
  c.user_offsets.assign(n_users + 1, 0);
  c.user_items.reserve(train.n_ratings());
  c.user_centred.reserve(train.n_ratings());
  for (UserId u = 0; u < n_users; ++u) {
    const auto items = train.items_of(u);
    const auto values = train.values_of_user(u);
    for (std::size_t k = 0; k < items.size(); ++k) {
      c.user_items.push_back(items[k]);
      c.user_centred.push_back(values[k] - c.item_mean[items[k]]);
    }
    c.user_offsets[u + 1] = c.user_items.size();
  }
  c.norm.assign(n_items, 0.0);
  for (ItemId i = 0; i < n_items; ++i) {
    const auto values = train.values_of_item(i);
    double s = 0;
    for (float v : values) {
      const double d = v - c.item_mean[i];
      s += d * d;
    }
    c.norm[i] = std::sqrt(s);
  }
  return c;
}

}  // namespace assay::recsys
