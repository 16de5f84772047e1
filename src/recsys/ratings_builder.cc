#include "recsys/ratings_builder.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "core/number_parse.h"

namespace assay::recsys {
namespace {

std::string format_scale(const RatingScale& scale) {
  std::ostringstream os;
  os << scale.low << ".." << scale.high;
  if (scale.values.size() > 1) os << " in steps of " << (scale.values[1] - scale.values[0]);
  return os.str();
}

}  // namespace

std::uint32_t RatingsBuilder::intern(std::unordered_map<std::string, std::uint32_t>& index,
                                     std::vector<std::string>& labels, std::string_view label) {
  auto [it, inserted] =
      index.try_emplace(std::string(label), static_cast<std::uint32_t>(labels.size()));
  if (inserted) labels.emplace_back(label);
  return it->second;
}

void RatingsBuilder::add(std::string_view user_label, std::string_view item_label,
                         std::string_view value_text, const core::SourceLocation& where) {
  const auto value = core::parse_double(value_text);
  if (!value || !std::isfinite(*value)) {
    throw core::ParseError(where,
                           "expected a numeric rating, got '" + std::string(value_text) + "'");
  }
  add_value(user_label, item_label, *value, where);
}

void RatingsBuilder::add_value(std::string_view user_label, std::string_view item_label,
                               double value, const core::SourceLocation& where) {
  if (user_label.empty()) throw core::ParseError(where, "expected a user id, got an empty field");
  if (item_label.empty()) throw core::ParseError(where, "expected an item id, got an empty field");
  if (!scale_.contains(value)) {
    std::ostringstream os;
    os << "rating " << value << " is off the scale " << format_scale(scale_);
    throw core::ParseError(where, os.str());
  }
  const std::uint32_t u = intern(user_index_, user_labels_, user_label);
  const std::uint32_t i = intern(item_index_, item_labels_, item_label);
  const std::uint64_t key = (static_cast<std::uint64_t>(u) << 32) | i;
  const auto [it, inserted] = seen_.try_emplace(key, where.line);
  if (!inserted) {
    throw core::ParseError(where, "duplicate rating of user '" + std::string(user_label) +
                                      "' for item '" + std::string(item_label) +
                                      "' (first rated on line " + std::to_string(it->second) + ")");
  }
  if (value != std::floor(value)) all_whole_ = false;
  records_.push_back({u, i, static_cast<float>(value)});
}

std::vector<std::uint32_t> dense_label_order(const std::vector<std::string>& labels,
                                             std::vector<std::string>& sorted) {
  std::vector<std::uint32_t> order(labels.size());
  std::iota(order.begin(), order.end(), 0u);
  std::vector<std::int64_t> numeric(labels.size());
  bool all_numeric = true;
  for (std::size_t k = 0; k < labels.size() && all_numeric; ++k) {
    const auto v = core::parse_int64(labels[k]);
    if (!v)
      all_numeric = false;
    else
      numeric[k] = *v;
  }
  if (all_numeric) {
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return numeric[a] < numeric[b]; });
  }
  std::vector<std::uint32_t> dense(labels.size());
  sorted.resize(labels.size());
  for (std::size_t d = 0; d < order.size(); ++d) {
    dense[order[d]] = static_cast<std::uint32_t>(d);
    sorted[d] = labels[order[d]];
  }
  return dense;
}

Ratings RatingsBuilder::build(const std::string& source) const {
  if (records_.empty()) {
    throw core::ParseError(core::SourceLocation{source}, "no ratings found; expected at least one");
  }
  std::vector<std::string> users, items;
  const auto user_dense = dense_label_order(user_labels_, users);
  const auto item_dense = dense_label_order(item_labels_, items);
  std::vector<Rating> triplets;
  triplets.reserve(records_.size());
  for (const Record& r : records_)
    triplets.push_back({user_dense[r.user], item_dense[r.item], r.value});
  Ratings out = Ratings::from_triplets(std::move(triplets), users.size(), items.size(), scale_);
  out.set_labels(std::move(users), std::move(items));
  return out;
}

}  // namespace assay::recsys
