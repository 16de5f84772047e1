#include "recsys/ratings.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/check.h"
#include "core/error.h"

namespace assay::recsys {
namespace {

// Values read from text are compared with the scale's admissible values with a tolerance far
// below any rating step, so "4.0" and 4 are the same value.
constexpr double kScaleTolerance = 1e-6;

std::string format_value(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

bool pair_less(const Rating& a, const Rating& b) {
  return a.user != b.user ? a.user < b.user : a.item < b.item;
}

}  // namespace

bool RatingScale::contains(double v) const {
  if (!std::isfinite(v)) return false;
  if (v < low - kScaleTolerance || v > high + kScaleTolerance) return false;
  if (values.empty()) return true;
  for (double x : values) {
    if (std::abs(x - v) <= kScaleTolerance) return true;
  }
  return false;
}

Ratings Ratings::from_triplets(std::vector<Rating> ratings, std::size_t n_users,
                               std::size_t n_items, RatingScale scale) {
  for (const Rating& r : ratings) {
    if (r.user >= n_users || r.item >= n_items) {
      throw core::Error("rating (user " + std::to_string(r.user) + ", item " +
                        std::to_string(r.item) + ") is out of range: " + std::to_string(n_users) +
                        " users, " + std::to_string(n_items) + " items");
    }
    if (!scale.contains(r.value)) {
      throw core::Error("rating " + format_value(r.value) + " of (user " + std::to_string(r.user) +
                        ", item " + std::to_string(r.item) + ") is off the scale " +
                        format_value(scale.low) + ".." + format_value(scale.high));
    }
  }
  std::sort(ratings.begin(), ratings.end(), pair_less);
  for (std::size_t k = 1; k < ratings.size(); ++k) {
    if (ratings[k].user == ratings[k - 1].user && ratings[k].item == ratings[k - 1].item) {
      throw core::Error("duplicate rating of (user " + std::to_string(ratings[k].user) + ", item " +
                        std::to_string(ratings[k].item) + ")");
    }
  }
  Ratings out;
  out.scale_ = std::move(scale);
  out.build_from_sorted(ratings, n_users, n_items);
  std::vector<std::string> users(n_users), items(n_items);
  for (std::size_t u = 0; u < n_users; ++u) users[u] = std::to_string(u + 1);
  for (std::size_t i = 0; i < n_items; ++i) items[i] = std::to_string(i + 1);
  out.set_labels(std::move(users), std::move(items));
  return out;
}

void Ratings::build_from_sorted(const std::vector<Rating>& sorted, std::size_t n_users,
                                std::size_t n_items) {
  const std::size_t n = sorted.size();
  by_user_offsets_.assign(n_users + 1, 0);
  by_item_offsets_.assign(n_items + 1, 0);
  by_user_items_.resize(n);
  by_user_values_.resize(n);
  by_item_users_.resize(n);
  by_item_values_.resize(n);
  for (const Rating& r : sorted) {
    ++by_user_offsets_[r.user + 1];
    ++by_item_offsets_[r.item + 1];
  }
  for (std::size_t u = 0; u < n_users; ++u) by_user_offsets_[u + 1] += by_user_offsets_[u];
  for (std::size_t i = 0; i < n_items; ++i) by_item_offsets_[i + 1] += by_item_offsets_[i];
  std::vector<std::size_t> fill(by_item_offsets_.begin(), by_item_offsets_.end() - 1);
  for (std::size_t k = 0; k < n; ++k) {
    by_user_items_[k] = sorted[k].item;
    by_user_values_[k] = sorted[k].value;
    // Ratings arrive sorted by user, so each item column is filled in increasing user order.
    const std::size_t pos = fill[sorted[k].item]++;
    by_item_users_[pos] = sorted[k].user;
    by_item_values_[pos] = sorted[k].value;
  }
  // Labels are sized by the caller (set_labels); keep the counts consistent meanwhile.
  user_labels_.resize(n_users);
  item_labels_.resize(n_items);
}

std::span<const ItemId> Ratings::items_of(UserId u) const {
  ASSAY_CHECK(u < n_users());
  return {by_user_items_.data() + by_user_offsets_[u],
          by_user_offsets_[u + 1] - by_user_offsets_[u]};
}

std::span<const float> Ratings::values_of_user(UserId u) const {
  ASSAY_CHECK(u < n_users());
  return {by_user_values_.data() + by_user_offsets_[u],
          by_user_offsets_[u + 1] - by_user_offsets_[u]};
}

std::span<const UserId> Ratings::users_of(ItemId i) const {
  ASSAY_CHECK(i < n_items());
  return {by_item_users_.data() + by_item_offsets_[i],
          by_item_offsets_[i + 1] - by_item_offsets_[i]};
}

std::span<const float> Ratings::values_of_item(ItemId i) const {
  ASSAY_CHECK(i < n_items());
  return {by_item_values_.data() + by_item_offsets_[i],
          by_item_offsets_[i + 1] - by_item_offsets_[i]};
}

std::optional<float> Ratings::rating(UserId u, ItemId i) const {
  if (u >= n_users()) return std::nullopt;
  const auto items = items_of(u);
  const auto it = std::lower_bound(items.begin(), items.end(), i);
  if (it == items.end() || *it != i) return std::nullopt;
  return values_of_user(u)[static_cast<std::size_t>(it - items.begin())];
}

std::vector<Rating> Ratings::triplets() const {
  std::vector<Rating> out;
  out.reserve(n_ratings());
  for (UserId u = 0; u < n_users(); ++u) {
    for (std::size_t k = by_user_offsets_[u]; k < by_user_offsets_[u + 1]; ++k) {
      out.push_back({u, by_user_items_[k], by_user_values_[k]});
    }
  }
  return out;
}

std::span<const AttributeId> Ratings::attributes_of(ItemId i) const {
  ASSAY_CHECK(i < n_items());
  if (attribute_offsets_.empty()) return {};
  return {attribute_ids_.data() + attribute_offsets_[i],
          attribute_offsets_[i + 1] - attribute_offsets_[i]};
}

void Ratings::set_item_attributes(std::vector<std::vector<AttributeId>> per_item,
                                  std::vector<std::string> names) {
  if (per_item.size() != n_items()) {
    throw core::Error("item attributes given for " + std::to_string(per_item.size()) +
                      " items, the dataset has " + std::to_string(n_items()));
  }
  attribute_offsets_.assign(n_items() + 1, 0);
  attribute_ids_.clear();
  for (std::size_t i = 0; i < per_item.size(); ++i) {
    auto& ids = per_item[i];
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (AttributeId a : ids) {
      if (a >= names.size()) {
        throw core::Error("attribute id " + std::to_string(a) + " of item " + std::to_string(i) +
                          " is out of range (" + std::to_string(names.size()) + " names)");
      }
      attribute_ids_.push_back(a);
    }
    attribute_offsets_[i + 1] = attribute_ids_.size();
  }
  attribute_names_ = std::move(names);
}

void Ratings::set_labels(std::vector<std::string> user_labels,
                         std::vector<std::string> item_labels) {
  if (user_labels.size() != n_users() || item_labels.size() != n_items()) {
    throw core::Error("labels given for " + std::to_string(user_labels.size()) + " users and " +
                      std::to_string(item_labels.size()) + " items, the dataset has " +
                      std::to_string(n_users()) + " and " + std::to_string(n_items()));
  }
  std::unordered_map<std::string, UserId> users;
  std::unordered_map<std::string, ItemId> items;
  users.reserve(user_labels.size());
  items.reserve(item_labels.size());
  for (std::size_t u = 0; u < user_labels.size(); ++u) {
    if (!users.emplace(user_labels[u], static_cast<UserId>(u)).second) {
      throw core::Error("duplicate user label '" + user_labels[u] + "'");
    }
  }
  for (std::size_t i = 0; i < item_labels.size(); ++i) {
    if (!items.emplace(item_labels[i], static_cast<ItemId>(i)).second) {
      throw core::Error("duplicate item label '" + item_labels[i] + "'");
    }
  }
  user_labels_ = std::move(user_labels);
  item_labels_ = std::move(item_labels);
  user_index_ = std::move(users);
  item_index_ = std::move(items);
}

std::optional<UserId> Ratings::find_user(const std::string& label) const {
  const auto it = user_index_.find(label);
  if (it == user_index_.end()) return std::nullopt;
  return it->second;
}

std::optional<ItemId> Ratings::find_item(const std::string& label) const {
  const auto it = item_index_.find(label);
  if (it == item_index_.end()) return std::nullopt;
  return it->second;
}

Ratings Ratings::apply(std::span<const Modification> modifications) const {
  std::vector<Modification> mods(modifications.begin(), modifications.end());
  std::sort(mods.begin(), mods.end(), [](const Modification& a, const Modification& b) {
    return a.user != b.user ? a.user < b.user : a.item < b.item;
  });
  auto describe = [&](const Modification& m) {
    const char* kind = m.kind == Modification::Kind::kAdd      ? "add"
                       : m.kind == Modification::Kind::kRemove ? "remove"
                                                               : "change";
    return std::string(kind) + " (user " + std::to_string(m.user) + ", item " +
           std::to_string(m.item) + ")";
  };
  for (std::size_t k = 0; k < mods.size(); ++k) {
    const Modification& m = mods[k];
    if (m.user >= n_users() || m.item >= n_items()) {
      throw core::Error("modification " + describe(m) + " is out of range");
    }
    if (k > 0 && mods[k - 1].user == m.user && mods[k - 1].item == m.item) {
      throw core::Error("two modifications of the same pair: " + describe(m));
    }
    const bool present = rating(m.user, m.item).has_value();
    if (m.kind == Modification::Kind::kAdd && present) {
      throw core::Error("cannot " + describe(m) + ": the user already rated the item");
    }
    if (m.kind != Modification::Kind::kAdd && !present) {
      throw core::Error("cannot " + describe(m) + ": the user did not rate the item");
    }
    if (m.kind != Modification::Kind::kRemove && !scale_.contains(m.value)) {
      throw core::Error("cannot " + describe(m) + ": value " + format_value(m.value) +
                        " is off the scale");
    }
  }
  // Merge each user's sorted row with that user's sorted modifications.
  std::vector<Rating> merged;
  merged.reserve(n_ratings() + mods.size());
  std::size_t next_mod = 0;
  for (UserId u = 0; u < n_users(); ++u) {
    const auto items = items_of(u);
    const auto values = values_of_user(u);
    std::size_t k = 0;
    while (k < items.size() || (next_mod < mods.size() && mods[next_mod].user == u)) {
      const bool mod_here = next_mod < mods.size() && mods[next_mod].user == u;
      if (mod_here && (k == items.size() || mods[next_mod].item <= items[k])) {
        const Modification& m = mods[next_mod++];
        if (m.kind == Modification::Kind::kAdd) {
          merged.push_back({u, m.item, m.value});
        } else {
          if (m.kind == Modification::Kind::kChange) merged.push_back({u, m.item, m.value});
          ++k;  // the modified rating replaces (or removes) items[k] == m.item
        }
      } else {
        merged.push_back({u, items[k], values[k]});
        ++k;
      }
    }
  }
  Ratings out;
  out.scale_ = scale_;
  out.build_from_sorted(merged, n_users(), n_items());
  out.attribute_offsets_ = attribute_offsets_;
  out.attribute_ids_ = attribute_ids_;
  out.attribute_names_ = attribute_names_;
  out.user_labels_ = user_labels_;
  out.item_labels_ = item_labels_;
  out.user_index_ = user_index_;
  out.item_index_ = item_index_;
  return out;
}

}  // namespace assay::recsys
