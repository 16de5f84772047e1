#include "core/unit_plan.h"

#include "core/error.h"
#include "core/rng.h"

namespace assay::core {

std::uint64_t key_hash(std::string_view key) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::uint64_t unit_seed(std::uint64_t run_seed, std::string_view key) {
  return derive_seed(run_seed, key_hash(key));
}

std::size_t UnitPlan::add(std::string key) {
  return add(std::move(key), units_.size());
}

std::size_t UnitPlan::add(std::string key, std::size_t slot) {
  const std::size_t index = units_.size();
  if (!index_.emplace(key, index).second) {
    throw UsageError("the plan lists the unit '" + key + "' twice");
  }
  const std::uint64_t seed = unit_seed(run_seed_, key);
  units_.push_back({std::move(key), seed, slot});
  return index;
}

std::size_t UnitPlan::find(std::string_view key) const {
  const auto it = index_.find(std::string(key));
  return it == index_.end() ? units_.size() : it->second;
}

}  // namespace assay::core
