#include "stability/influence.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"

namespace assay::stability {

Influence compute_influence(const recsys::Ratings& data, const recsys::TopKLists& top,
                            const InfluenceOptions& options) {
  ASSAY_CHECK(top.size() == data.n_users());
  const std::size_t n_users = data.n_users(), n_items = data.n_items();
  Influence inf;
  inf.rating_epsilon = options.rating_epsilon;
  inf.rating_values = options.rating_values.empty() ? data.scale().values : options.rating_values;

  // I_U: for each u', mark every user who rated one of u''s recommended items, once per u'
  // (the stamp avoids clearing a bitmap per user).
  inf.user.assign(n_users, 0);
  std::vector<std::uint32_t> stamp(n_users, std::numeric_limits<std::uint32_t>::max());
  for (std::size_t v = 0; v < n_users; ++v) {
    for (const auto item : top[v]) {
      for (const auto u : data.users_of(item)) {
        if (stamp[u] != v) {
          stamp[u] = static_cast<std::uint32_t>(v);
          ++inf.user[u];
        }
      }
    }
  }

  // I_I: raters of i who have a non-empty top-k.
  inf.item.assign(n_items, 0);
  for (std::size_t i = 0; i < n_items; ++i) {
    for (const auto u : data.users_of(static_cast<recsys::ItemId>(i))) {
      if (!top[u].empty()) ++inf.item[i];
    }
  }

  // How often each item is recommended; I_A and I_R are sums over recommended (u, i).
  std::vector<std::uint32_t> times_recommended(n_items, 0);
  for (const auto& list : top) {
    for (const auto item : list) ++times_recommended[item];
  }

  const std::size_t n_attributes = data.n_attributes();
  inf.attribute.assign(n_attributes, 0);
  for (std::size_t i = 0; i < n_items; ++i) {
    for (const auto a : data.attributes_of(static_cast<recsys::ItemId>(i))) {
      inf.attribute[a] += times_recommended[i];
    }
  }
  inf.attribute_rescaled.assign(n_attributes, 0);
  for (std::size_t a = 0; a < n_attributes; ++a) {
    std::size_t dominated = 0;
    for (std::size_t b = 0; b < n_attributes; ++b) {
      if (inf.attribute[a] >= inf.attribute[b]) ++dominated;
    }
    inf.attribute_rescaled[a] =
        2.0 * static_cast<double>(dominated) / static_cast<double>(n_attributes) - 1.0;
  }
  inf.item_attribute_score.assign(n_items, 0);
  for (std::size_t i = 0; i < n_items; ++i) {
    for (const auto a : data.attributes_of(static_cast<recsys::ItemId>(i))) {
      inf.item_attribute_score[i] += inf.attribute_rescaled[a];
    }
  }

  inf.item_mean.assign(n_items, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < n_items; ++i) {
    const auto values = data.values_of_item(static_cast<recsys::ItemId>(i));
    if (values.empty()) continue;
    double sum = 0;
    for (const float v : values) sum += v;
    inf.item_mean[i] = sum / static_cast<double>(values.size());
  }
  inf.rating.assign(inf.rating_values.size(), 0);
  for (std::size_t r = 0; r < inf.rating_values.size(); ++r) {
    for (std::size_t i = 0; i < n_items; ++i) {
      if (std::abs(inf.rating_values[r] - inf.item_mean[i]) <= inf.rating_epsilon) {
        inf.rating[r] += times_recommended[i];
      }
    }
  }
  return inf;
}

}  // namespace assay::stability
