#include "fairness/first_names.h"

#include <algorithm>

#include "core/error.h"
#include "core/line_reader.h"
#include "text/unicode_props.h"

#ifndef ASSAY_NAMES_DIR
#define ASSAY_NAMES_DIR "data/names"
#endif

namespace assay::fairness {
namespace {

// FNV-1a over the bytes, then mixed with the seed (splitmix64's finaliser).
std::uint64_t name_hash(std::string_view name, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  h ^= seed + 0x9e3779b97f4a7c15ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

bool is_name(std::string_view w) {
  if (w.size() < 2) return false;
  for (const char c : w) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '\'';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

FirstNames FirstNames::load(const std::string& path) {
  core::LineReader reader(path);
  FirstNames names;
  std::string_view line;
  while (reader.next(line)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t t1 = line.find('\t');
    const std::size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string_view::npos || line.find('\t', t2 + 1) != std::string_view::npos) {
      throw core::ParseError(reader.location(),
                             "expected 3 tab-separated fields (name, gender, pool)");
    }
    const auto name = line.substr(0, t1);
    const auto gender = line.substr(t1 + 1, t2 - t1 - 1);
    const auto pool = line.substr(t2 + 1);
    if (!is_name(name)) {
      throw core::ParseError(reader.location(),
                             "expected a name of ASCII letters, got '" + std::string(name) + "'");
    }
    knowledge::Gender g;
    if (gender == "male") {
      g = knowledge::Gender::kMale;
    } else if (gender == "female") {
      g = knowledge::Gender::kFemale;
    } else {
      throw core::ParseError(reader.location(),
                             "expected 'male' or 'female', got '" + std::string(gender) + "'");
    }
    if (pool != "0" && pool != "1") {
      throw core::ParseError(reader.location(),
                             "expected pool 0 or 1, got '" + std::string(pool) + "'");
    }
    if (!names.gender_.emplace(text::to_lower(name), g).second) {
      throw core::ParseError(reader.location(), "'" + std::string(name) + "' is listed twice");
    }
    if (pool == "1") {
      (g == knowledge::Gender::kMale ? names.pool_male_ : names.pool_female_).emplace_back(name);
    }
  }
  if (names.pool_male_.empty() || names.pool_female_.empty()) {
    throw core::ParseError(core::SourceLocation{path, 0, 0},
                           "expected pool names (pool 1) of both genders");
  }
  return names;
}

std::string FirstNames::default_path() {
  return std::string(ASSAY_NAMES_DIR) + "/first-names.tsv";
}

knowledge::Gender FirstNames::gender_of(std::string_view name) const {
  const std::string lower = text::to_lower(name);
  if (const auto it = gender_.find(lower); it != gender_.end()) return it->second;
  // A double name ("Anne-Sophie", "Jean-Luc"): two or more listed names of one gender.
  if (lower.find('-') == std::string::npos) return knowledge::Gender::kNone;
  knowledge::Gender gender = knowledge::Gender::kNone;
  std::size_t from = 0;
  while (from <= lower.size()) {
    const std::size_t to = std::min(lower.find('-', from), lower.size());
    const auto it = gender_.find(lower.substr(from, to - from));
    if (it == gender_.end() || (gender != knowledge::Gender::kNone && it->second != gender))
      return knowledge::Gender::kNone;
    gender = it->second;
    from = to + 1;
  }
  return gender;
}

std::size_t FirstNames::link_groups(const SensitiveAttribute& attribute) {
  std::size_t linked = 0;
  for (const auto& group : attribute.groups) {
    if (group.female_names.empty() && group.male_names.empty()) continue;
    const std::size_t index = linked_groups_.size();
    linked_groups_.push_back({group.name, group.female_names, group.male_names});
    for (const auto g : {knowledge::Gender::kFemale, knowledge::Gender::kMale}) {
      for (const auto& name :
           g == knowledge::Gender::kFemale ? group.female_names : group.male_names) {
        const std::string lower = text::to_lower(name);
        const auto it = gender_.emplace(lower, g).first;
        if (it->second != g) continue;
        if (linked_.emplace(lower, index).second) ++linked;
      }
    }
  }
  return linked;
}

std::string FirstNames::linked_group(std::string_view name) const {
  const auto it = linked_.find(text::to_lower(name));
  return it == linked_.end() ? std::string() : linked_groups_[it->second].name;
}

std::string FirstNames::replacement(std::string_view name, knowledge::Gender gender,
                                    std::uint64_t seed, const std::set<std::string>& avoid) const {
  if (const auto it = linked_.find(text::to_lower(name)); it != linked_.end()) {
    const auto& group = linked_groups_[it->second];
    const auto& pool = gender == knowledge::Gender::kMale ? group.female : group.male;
    if (!pool.empty()) return pick_name(pool, name, seed, avoid);
  }
  return pick_name(gender == knowledge::Gender::kMale ? pool_female_ : pool_male_, name, seed,
                   avoid);
}

std::string pick_name(const std::vector<std::string>& pool, std::string_view name,
                      std::uint64_t seed, const std::set<std::string>& avoid) {
  const std::size_t start = name_hash(text::to_lower(name), seed) % pool.size();
  for (std::size_t k = 0; k < pool.size(); ++k) {
    const auto& candidate = pool[(start + k) % pool.size()];
    if (!avoid.count(text::to_lower(candidate))) return candidate;
  }
  return pool[start];
}

}  // namespace assay::fairness
