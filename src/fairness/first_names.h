// FirstNames: English first names with their gender (data/names/first-names.tsv, from the
// public-domain Moby lists that stdlib publishes on npm; names in both lists are left out) and
// the pool of common names a gender perturbation puts in their place. The replacement of a
// name is chosen from the other gender's pool by a hash of the name and the seed, so the same
// name gets the same replacement in every mention and every run with that seed.
//
// Format: '#' comments, rows `Name<TAB>female|male<TAB>0|1` (1: in the replacement pool).
//
// Names of another attribute's groups (the `names` rows of an attribute file, by default
// race.attr's) can be linked: a linked name is swapped for a name of the same group and the
// other gender, so that a gender swap changes gender alone ("Jamal" → "Lakisha", not a pool
// name that also changes the name's association with race).
// Immutable after load and link_groups: thread-safe.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fairness/sensitive_attribute.h"
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

  // Links the first names of `attribute`'s `names` rows: each is replaced by a name of its
  // group and the other gender (when the group lists that gender), and a name the lists lack
  // is recognised with its row's gender. A name listed here with the other gender is not
  // linked (the lists' gender stands). Returns the number of names linked.
  std::size_t link_groups(const SensitiveAttribute& attribute);
  // The group (its name in the linked attribute) whose names hold `name`, or "" when unlinked.
  std::string linked_group(std::string_view name) const;

 private:
  struct LinkedGroup {
    std::string name;
    std::vector<std::string> female, male;
  };
  std::unordered_map<std::string, knowledge::Gender> gender_;  // lower-case name → gender
  std::vector<std::string> pool_male_, pool_female_;
  std::vector<LinkedGroup> linked_groups_;
  std::unordered_map<std::string, std::size_t> linked_;  // lower-case name → linked_groups_
};

}  // namespace assay::fairness
