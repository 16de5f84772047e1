// Influence models (spec "Influence models"), computed once from the data D and the original
// top-k recommendations. Each model scores one aspect of the data by how much of the current
// recommendations it touches; the heuristics target the most (or least) influential aspects.
#pragma once

#include <cstdint>
#include <vector>

#include "recsys/ratings.h"
#include "recsys/recommender.h"

namespace assay::stability {

inline constexpr double kRatingEpsilon = 0.05;

struct InfluenceOptions {
  double rating_epsilon = kRatingEpsilon;
  // Rating values scored by I_R; empty means the data's scale values (MovieLens: 1..5). The
  // "finer grid" option of the spec is a list such as 1, 1.1, ..., 5.
  std::vector<double> rating_values;
};

struct Influence {
  // I_U(u): number of users u' whose top-k contains at least one item rated by u.
  std::vector<std::uint32_t> user;
  // I_I(i): number of users who rated i and have at least one recommended item.
  std::vector<std::uint32_t> item;
  // I_A(a): number of (u, i) with i in u's top-k and a in attr(i).
  std::vector<std::uint32_t> attribute;
  // I_A2(a) = 2·|{a' : I_A(a) >= I_A(a')}| / |A_I| - 1 (AMA's re-scaling, in (-1, 1]).
  std::vector<double> attribute_rescaled;
  // AMA's item score: sum of I_A2 over the item's attributes (0 for an item without any).
  std::vector<double> item_attribute_score;
  // I_R(r) for r = rating_values[k]: number of (u, i) with i in u's top-k and
  // |r - mean rating of i| <= epsilon (items without ratings have no mean and never count).
  std::vector<double> rating_values;
  std::vector<std::uint32_t> rating;
  // Mean rating of each item (NaN when unrated); AMR selects items with it.
  std::vector<double> item_mean;
  double rating_epsilon = kRatingEpsilon;
};

// `top` holds one list per user of `data` (checked).
Influence compute_influence(const recsys::Ratings& data, const recsys::TopKLists& top,
                            const InfluenceOptions& options = {});

}  // namespace assay::stability
