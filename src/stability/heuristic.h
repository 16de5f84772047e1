// Fuzzing heuristics (spec "Fuzzing heuristics"): each maps (influence, data, n) to a set of n
// modifications. Names: first letter the modification (A add, R remove, C change), second most
// (M) or least (L) influential, third the influence model (U user, I item, A attribute,
// R rating); ARAND/RRAND/CRAND are the random baselines and APORTFOLIO a round robin.
//
// Every random choice comes from Rng(seed): ties among equally influential aspects are broken
// uniformly at random by shuffling before a stable sort; random values are uniform over the
// scale's values. A set never holds two modifications of the same (u, i). When the data cannot
// supply n modifications (every target exhausted) the set is shorter; callers record its size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "recsys/ratings.h"
#include "stability/influence.h"

namespace assay::stability {

enum class Heuristic { kAmu, kRmu, kCmu, kAli, kAmr, kAma, kArand, kRrand, kCrand, kAportfolio };

// The nine + APORTFOLIO, in the paper's order.
const std::vector<Heuristic>& all_heuristics();
std::string_view to_string(Heuristic h);  // "AMU", ..., "APORTFOLIO"
// Case-insensitive; throws core::UsageError listing the valid names.
Heuristic parse_heuristic(std::string_view name);

// The kind of modification a heuristic makes (APORTFOLIO with the default list: additions).
recsys::Modification::Kind modification_kind(Heuristic h);
// The random baseline of the same type: add -> ARAND, remove -> RRAND, change -> CRAND.
Heuristic random_baseline(Heuristic h);
bool is_random_baseline(Heuristic h);

struct HeuristicOptions {
  // APORTFOLIO's round robin (may not contain APORTFOLIO itself).
  std::vector<Heuristic> portfolio{Heuristic::kAmu, Heuristic::kAli, Heuristic::kAmr,
                                   Heuristic::kAma};
};

// Generates up to n modifications. `influence` must come from compute_influence on `data`.
// The result is a pure function of (h, data, influence, n, seed, options).
std::vector<recsys::Modification> generate_modifications(Heuristic h, const recsys::Ratings& data,
                                                         const Influence& influence, std::size_t n,
                                                         std::uint64_t seed,
                                                         const HeuristicOptions& options = {});

}  // namespace assay::stability
