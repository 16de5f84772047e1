#include "stability/oracles.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "core/check.h"
#include "core/error.h"

namespace assay::stability {
namespace {

// Top-k lists are short (k = 10), so linear membership tests beat hashing.
bool contains(ItemList list, recsys::ItemId item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// X_d for d = 1..k: the size of the intersection of the two depth-d prefixes. Incremental: at
// depth d the new element of A counts when it is in B[1:d], the new element of B when it is in
// A[1:d-1] (so a shared element at the same depth counts once).
template <class Fn>
void for_each_prefix_overlap(ItemList a, ItemList b, Fn&& fn) {
  const std::size_t k = std::max(a.size(), b.size());
  std::size_t overlap = 0;
  for (std::size_t d = 1; d <= k; ++d) {
    const ItemList a_prefix = a.first(std::min(d, a.size()));
    const ItemList b_prefix = b.first(std::min(d, b.size()));
    if (d <= a.size() && contains(b_prefix, a[d - 1])) ++overlap;
    if (d <= b.size() && contains(a_prefix.first(std::min(d - 1, a.size())), b[d - 1])) {
      ++overlap;
    }
    fn(d, overlap);
  }
}

}  // namespace

std::string_view to_string(Oracle oracle) {
  switch (oracle) {
    case Oracle::kTopOut:
      return "top-out";
    case Oracle::kJaccard:
      return "jaccard";
    case Oracle::kAod:
      return "aod";
    case Oracle::kRbo:
      return "rbo";
  }
  return "?";
}

std::string_view title(Oracle oracle) {
  switch (oracle) {
    case Oracle::kTopOut:
      return "Top Out";
    case Oracle::kJaccard:
      return "Jaccard";
    case Oracle::kAod:
      return "AOD";
    case Oracle::kRbo:
      return "RBO";
  }
  return "?";
}

Oracle parse_oracle(std::string_view name) {
  for (const Oracle o : kAllOracles) {
    if (to_string(o) == name) return o;
  }
  throw core::UsageError("unknown oracle '" + std::string(name) +
                         "' (expected top-out, jaccard, aod or rbo)");
}

double top_out(ItemList before, ItemList after) {
  if (before.empty()) return 0;
  return contains(after, before[0]) ? 0.0 : 1.0;
}

double jaccard_distance(ItemList before, ItemList after) {
  if (before.empty() && after.empty()) return 0;
  std::size_t common = 0;
  for (const auto item : before) common += contains(after, item) ? 1 : 0;
  const std::size_t union_size = before.size() + after.size() - common;
  return 1.0 - static_cast<double>(common) / static_cast<double>(union_size);
}

double average_overlap_distance(ItemList before, ItemList after) {
  const std::size_t k = std::max(before.size(), after.size());
  if (k == 0) return 0;
  double sum = 0;
  for_each_prefix_overlap(before, after, [&](std::size_t d, std::size_t x) {
    sum += static_cast<double>(x) / static_cast<double>(d);
  });
  return 1.0 - sum / static_cast<double>(k);
}

double rbo_distance(ItemList before, ItemList after, double p) {
  ASSAY_CHECK(p > 0 && p < 1);
  const std::size_t k = std::max(before.size(), after.size());
  if (k == 0) return 0;
  double sum = 0, p_d = 1, last_agreement = 0;
  for_each_prefix_overlap(before, after, [&](std::size_t d, std::size_t x) {
    p_d *= p;
    last_agreement = static_cast<double>(x) / static_cast<double>(d);
    sum += last_agreement * p_d;
  });
  const double rbo = last_agreement * p_d + (1 - p) / p * sum;
  return std::max(0.0, 1.0 - rbo);
}

double distance(Oracle oracle, ItemList before, ItemList after) {
  switch (oracle) {
    case Oracle::kTopOut:
      return top_out(before, after);
    case Oracle::kJaccard:
      return jaccard_distance(before, after);
    case Oracle::kAod:
      return average_overlap_distance(before, after);
    case Oracle::kRbo:
      return rbo_distance(before, after);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

double mean_distance(Oracle oracle, const recsys::TopKLists& before,
                     const recsys::TopKLists& after) {
  ASSAY_CHECK(before.size() == after.size());
  if (before.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (std::size_t u = 0; u < before.size(); ++u) sum += distance(oracle, before[u], after[u]);
  return sum / static_cast<double>(before.size());
}

std::array<double, kNumOracles> mean_distances(const recsys::TopKLists& before,
                                               const recsys::TopKLists& after) {
  std::array<double, kNumOracles> out{};
  for (std::size_t o = 0; o < kNumOracles; ++o)
    out[o] = mean_distance(kAllOracles[o], before, after);
  return out;
}

}  // namespace assay::stability
