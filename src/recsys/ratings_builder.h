// RatingsBuilder turns rating records with external ids (as read from a file) into a Ratings
// store. It is shared by every loader so that they all report bad records the same way: a
// non-numeric or off-scale value and a duplicate (user, item) pair are core::ParseError at the
// record's file:line, and a duplicate names the line of the first occurrence.
//
// Dense ids: when every label of a kind is a decimal integer, ids follow numeric label order
// (MovieLens ids 1..n become 0..n-1, so "ties by item id" means ties by MovieLens id);
// otherwise they follow order of first appearance in the input.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "recsys/ratings.h"

namespace assay::recsys {

class RatingsBuilder {
 public:
  explicit RatingsBuilder(RatingScale scale) : scale_(std::move(scale)) {}

  // Parses `value_text` as a rating on the scale and records it. `where` locates the value.
  void add(std::string_view user_label, std::string_view item_label, std::string_view value_text,
           const core::SourceLocation& where);
  // Records an already-numeric value.
  void add_value(std::string_view user_label, std::string_view item_label, double value,
                 const core::SourceLocation& where);

  std::size_t n_ratings() const { return records_.size(); }
  // Narrows the scale the built store declares (e.g. a MovieLens 1M file with only whole
  // stars). Every value added so far must lie on it.
  void set_scale(RatingScale scale) { scale_ = std::move(scale); }
  // True when every value added so far is a whole number.
  bool all_whole() const { return all_whole_; }
  const RatingScale& scale() const { return scale_; }

  // Builds the store. Throws ParseError at `source` (line 0) when no rating was added.
  Ratings build(const std::string& source) const;

 private:
  struct Record {
    std::uint32_t user;  // index into user_labels_ (first-appearance order)
    std::uint32_t item;
    float value;
  };
  std::uint32_t intern(std::unordered_map<std::string, std::uint32_t>& index,
                       std::vector<std::string>& labels, std::string_view label);

  RatingScale scale_;
  bool all_whole_ = true;
  std::vector<Record> records_;
  std::unordered_map<std::string, std::uint32_t> user_index_, item_index_;
  std::vector<std::string> user_labels_, item_labels_;
  // (user, item) -> line of the first occurrence, to name both lines in a duplicate message.
  std::unordered_map<std::uint64_t, std::uint64_t> seen_;
};

// Maps labels to dense ids as described above; returns the permutation (first-appearance index
// -> dense id) and fills `sorted` with labels in dense order.
std::vector<std::uint32_t> dense_label_order(const std::vector<std::string>& labels,
                                             std::vector<std::string>& sorted);

}  // namespace assay::recsys
