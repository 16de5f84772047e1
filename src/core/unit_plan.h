// UnitPlan: the work units of a resumable campaign, each named by a string key. The key is the
// unit's identity everywhere: its row in the store (so a finished unit is never run twice), and
// the source of its seed, unit_seed(run seed, key), so a unit gives the same numbers whatever
// order, thread, process or shard runs it and however the plan around it changes.
//
// Units are executed in plan order (an engine lists them in the order it wants an interrupted
// run to have covered: e.g. a few trials of every cell before all trials of one). Each unit has
// a slot that deals it to a shard (shard.h: shard I of N owns slot ≡ I mod N); by default its
// position in the plan. An engine that lists units in an order other than their natural one
// gives each its natural position as slot, so the deal does not depend on the order of
// execution; engines with several kinds of unit number each kind from 0, so every shard gets
// its share of each kind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace assay::core {

// FNV-1a (64 bit) of the key's bytes: fixed by this definition, never by a library's hash.
std::uint64_t key_hash(std::string_view key);

// The seed of the unit named `key` in a run seeded with `run_seed`:
// derive_seed(run_seed, key_hash(key)) (rng.h). Stable across versions: stores and saved
// artefacts record seeds made this way.
std::uint64_t unit_seed(std::uint64_t run_seed, std::string_view key);

struct PlannedUnit {
  std::string key;
  std::uint64_t seed = 0;
  std::size_t slot = 0;
};

class UnitPlan {
 public:
  explicit UnitPlan(std::uint64_t run_seed) : run_seed_(run_seed) {}

  // Appends a unit; its slot is its position in the plan. Returns its index. A key listed twice
  // is a core::UsageError naming it (two units would share one row and one seed).
  std::size_t add(std::string key);
  std::size_t add(std::string key, std::size_t slot);

  std::uint64_t run_seed() const { return run_seed_; }
  std::size_t size() const { return units_.size(); }
  bool empty() const { return units_.empty(); }
  const PlannedUnit& operator[](std::size_t i) const { return units_[i]; }
  const std::vector<PlannedUnit>& units() const { return units_; }
  // Index of `key`, or size() when it is not in the plan.
  std::size_t find(std::string_view key) const;

 private:
  std::uint64_t run_seed_;
  std::vector<PlannedUnit> units_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace assay::core
