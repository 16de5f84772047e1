// Differential oracles: distances between a user's original top-k list and the list after the
// data was modified and the model retrained, averaged over users (the spec's f = mean).
//
// All distances are in [0, 1]; 0 means "unchanged". A user whose two lists are both empty
// contributes 0. Lists are best first and hold distinct items.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "recsys/recommender.h"

namespace assay::stability {

enum class Oracle { kTopOut, kJaccard, kAod, kRbo };
inline constexpr std::array<Oracle, 4> kAllOracles{Oracle::kTopOut, Oracle::kJaccard, Oracle::kAod,
                                                   Oracle::kRbo};
inline constexpr std::size_t kNumOracles = kAllOracles.size();
inline constexpr double kRboPersistence = 0.9;

// "top-out", "jaccard", "aod", "rbo".
std::string_view to_string(Oracle oracle);
// The report's name: "Top Out", "Jaccard", "AOD", "RBO".
std::string_view title(Oracle oracle);
// Throws core::UsageError naming the valid choices.
Oracle parse_oracle(std::string_view name);

using ItemList = std::span<const recsys::ItemId>;

// 1 when the original top-1 item is absent from the new list, else 0 (0 when `before` is empty).
double top_out(ItemList before, ItemList after);
// 1 - |A ∩ B| / |A ∪ B| of the two sets.
double jaccard_distance(ItemList before, ItemList after);
// 1 - AO, AO = (1/k) Σ_{d=1..k} |A[1:d] ∩ B[1:d]| / d with k = max(|A|, |B|).
double average_overlap_distance(ItemList before, ItemList after);
// 1 - RBO_ext (Webber et al. 2010, eq. 32) at depth k = max(|A|, |B|) with persistence p:
// RBO_ext = (X_k/k)·p^k + ((1-p)/p)·Σ_{d=1..k} (X_d/d)·p^d, X_d = |A[1:d] ∩ B[1:d]|.
// Identical lists give exactly 0 up to rounding.
double rbo_distance(ItemList before, ItemList after, double p = kRboPersistence);

double distance(Oracle oracle, ItemList before, ItemList after);

// Mean over users of distance(oracle, before[u], after[u]). Requires before.size() ==
// after.size() (checked); NaN for zero users.
double mean_distance(Oracle oracle, const recsys::TopKLists& before,
                     const recsys::TopKLists& after);
// All four oracles at once, in kAllOracles order.
std::array<double, kNumOracles> mean_distances(const recsys::TopKLists& before,
                                               const recsys::TopKLists& after);

}  // namespace assay::stability
