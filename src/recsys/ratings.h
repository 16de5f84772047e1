// Ratings: an immutable rating dataset with dense ids, stored as CSR by user and by item, plus
// optional item attributes (MovieLens genres). The contract shared by src/recsys (loaders,
// recommenders) and src/stability (influence models, heuristics, oracles).
//
// Dense ids: users 0..n_users()-1, items 0..n_items()-1, attributes 0..n_attributes()-1; the
// external ids of the source file are kept as labels. Within a user's row items are sorted by
// id; within an item's column users are sorted by id. Every (user, item) pair appears at most
// once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace assay::recsys {

using UserId = std::uint32_t;
using ItemId = std::uint32_t;
using AttributeId = std::uint32_t;

struct Rating {
  UserId user = 0;
  ItemId item = 0;
  float value = 0;
};

// The rating scale: low l, high h and the admissible values (MovieLens 100K: 1, 2, 3, 4, 5).
struct RatingScale {
  double low = 1;
  double high = 5;
  std::vector<double> values{1, 2, 3, 4, 5};
  bool contains(double v) const;
};

// Add(u,i,r): u has not rated i. Remove(u,i): u rated i. Change(u,i,r): u rated i.
struct Modification {
  enum class Kind : std::uint8_t { kAdd, kRemove, kChange };
  Kind kind = Kind::kAdd;
  UserId user = 0;
  ItemId item = 0;
  float value = 0;  // ignored for kRemove
};

class Ratings {
 public:
  Ratings() = default;

  // Builds from triplets with dense ids in range. Throws core::Error on a duplicate pair, an
  // id out of range or a value off the scale. Labels default to the decimal dense id + 1.
  static Ratings from_triplets(std::vector<Rating> ratings, std::size_t n_users,
                               std::size_t n_items, RatingScale scale = {});

  std::size_t n_users() const { return user_labels_.size(); }
  std::size_t n_items() const { return item_labels_.size(); }
  std::size_t n_ratings() const { return by_user_values_.size(); }
  const RatingScale& scale() const { return scale_; }

  // A user's rated items (sorted by id) and the matching values.
  std::span<const ItemId> items_of(UserId u) const;
  std::span<const float> values_of_user(UserId u) const;
  // An item's raters (sorted by id) and the matching values.
  std::span<const UserId> users_of(ItemId i) const;
  std::span<const float> values_of_item(ItemId i) const;
  // The rating of (u, i) if present (binary search in u's row).
  std::optional<float> rating(UserId u, ItemId i) const;

  // All ratings in canonical (user, item) order.
  std::vector<Rating> triplets() const;

  // Item attributes (sorted ids) and their names.
  std::span<const AttributeId> attributes_of(ItemId i) const;
  std::size_t n_attributes() const { return attribute_names_.size(); }
  const std::string& attribute_name(AttributeId a) const { return attribute_names_[a]; }
  void set_item_attributes(std::vector<std::vector<AttributeId>> per_item,
                           std::vector<std::string> names);

  // External ids from the source file.
  const std::string& user_label(UserId u) const { return user_labels_[u]; }
  const std::string& item_label(ItemId i) const { return item_labels_[i]; }
  void set_labels(std::vector<std::string> user_labels, std::vector<std::string> item_labels);
  std::optional<UserId> find_user(const std::string& label) const;
  std::optional<ItemId> find_item(const std::string& label) const;

  // A new dataset with the modifications applied (same ids, labels and attributes). Throws
  // core::Error when one is inconsistent (adding an existing pair, removing or changing a
  // missing one, a value off the scale, two modifications of the same pair).
  Ratings apply(std::span<const Modification> modifications) const;

 private:
  // Builds the CSR arrays from triplets already sorted by (user, item) without duplicates.
  void build_from_sorted(const std::vector<Rating>& sorted, std::size_t n_users,
                         std::size_t n_items);

  RatingScale scale_;
  std::vector<std::size_t> by_user_offsets_;  // n_users + 1
  std::vector<ItemId> by_user_items_;
  std::vector<float> by_user_values_;
  std::vector<std::size_t> by_item_offsets_;  // n_items + 1
  std::vector<UserId> by_item_users_;
  std::vector<float> by_item_values_;
  std::vector<std::size_t> attribute_offsets_;  // n_items + 1 (empty: no attributes)
  std::vector<AttributeId> attribute_ids_;
  std::vector<std::string> attribute_names_;
  std::vector<std::string> user_labels_;
  std::vector<std::string> item_labels_;
  std::unordered_map<std::string, UserId> user_index_;
  std::unordered_map<std::string, ItemId> item_index_;
};

}  // namespace assay::recsys
