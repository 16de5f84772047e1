// FirstNames: English first names with their gender (data/names/first-names.tsv, from the
// public-domain Moby lists that stdlib publishes on npm; names in both lists are left out) and
// the pool of common names a gender perturbation puts in their place. The replacement of a
// name is chosen from the other gender's pool by a hash of the name and the seed, so the same
// name gets the same replacement in every mention and every run with that seed.
//
// Format: '#' comments, rows `Name<TAB>female|male<TAB>0|1` (1: in the replacement pool).
// Immutable after load: thread-safe.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "knowledge/gender_counterpart_finder.h"

namespace assay::fairness {

// A name from `pool` for `name`, picked by hash(lower-case name, seed), skipping names in
// `avoid` (lower case): the same name gets the same pick in every mention and every run with
// that seed. `pool` must not be empty.
std::string pick_name(const std::vector<std::string>& pool, std::string_view name,
                      std::uint64_t seed, const std::set<std::string>& avoid);

class FirstNames {
 public:
  // Throws core::IoError when the file cannot be read and core::ParseError naming file:line
  // for a malformed row or a name listed twice; a file without pool names of both genders is
  // refused.
  static FirstNames load(const std::string& path);
  static std::string default_path();

  // The gender of a name in any case ("mary", "Mary", "MARY"), or of a double name whose
  // parts are all listed with one gender ("Anne-Sophie"); kNone otherwise.
  knowledge::Gender gender_of(std::string_view name) const;
  // The replacement of `name` (whose gender is `gender`): a pool name of the other gender,
  // capitalised as the pool writes it, picked by hash(name, seed); names in `avoid` (lower
  // case: the names already in the text) are skipped.
  std::string replacement(std::string_view name, knowledge::Gender gender, std::uint64_t seed,
                          const std::set<std::string>& avoid) const;
  std::size_t size() const { return gender_.size(); }

 private:
  std::unordered_map<std::string, knowledge::Gender> gender_;  // lower-case name → gender
  std::vector<std::string> pool_male_, pool_female_;
};

}  // namespace assay::fairness
