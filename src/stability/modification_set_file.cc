#include "stability/modification_set_file.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_file.h"

namespace assay::stability {
namespace {

constexpr const char* kFormat = "assay-rec-mods/1";

const char* kind_name(recsys::Modification::Kind kind) {
  switch (kind) {
    case recsys::Modification::Kind::kAdd:
      return "add";
    case recsys::Modification::Kind::kRemove:
      return "remove";
    case recsys::Modification::Kind::kChange:
      return "change";
  }
  return "?";
}

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw core::ParseError(core::SourceLocation(path), what);
}

const nlohmann::json& field(const nlohmann::json& j, const std::string& key,
                            const std::string& path, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) bad(path, where + "missing key '" + key + "'");
  return j.at(key);
}

std::string text_field(const nlohmann::json& j, const std::string& key, const std::string& path,
                       const std::string& where = "") {
  const auto& v = field(j, key, path, where);
  if (!v.is_string()) bad(path, where + "'" + key + "' must be a string");
  return v.get<std::string>();
}

std::uint64_t uint_field(const nlohmann::json& j, const std::string& key, const std::string& path) {
  const auto& v = field(j, key, path, "");
  if (!v.is_number_unsigned()) bad(path, "'" + key + "' must be a non-negative integer");
  return v.get<std::uint64_t>();
}

}  // namespace

std::string to_json_text(const SavedModificationSet& set, const recsys::Ratings& data) {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["data"] = set.data;
  j["algorithm"] = set.key.algorithm;
  j["heuristic"] = std::string(to_string(set.key.heuristic));
  j["size"] = set.key.size;
  j["trial"] = set.key.trial;
  j["campaign_seed"] = set.campaign_seed;
  j["run_seed"] = set.run_seed;
  j["model_seed"] = set.model_seed;
  j["k"] = set.k;
  nlohmann::ordered_json oracles;
  for (std::size_t o = 0; o < kNumOracles; ++o) {
    oracles[std::string(to_string(kAllOracles[o]))] = set.oracle[o];
  }
  j["oracles"] = oracles;
  auto mods = nlohmann::ordered_json::array();
  for (const auto& m : set.modifications) {
    nlohmann::ordered_json e;
    e["kind"] = kind_name(m.kind);
    e["user"] = data.user_label(m.user);
    e["item"] = data.item_label(m.item);
    if (m.kind != recsys::Modification::Kind::kRemove) e["value"] = m.value;
    mods.push_back(e);
  }
  j["modifications"] = mods;
  return j.dump(1) + "\n";
}

void write_modification_set(const std::string& path, const SavedModificationSet& set,
                            const recsys::Ratings& data) {
  core::write_file_atomically(path, to_json_text(set, data));
}

SavedModificationSet read_modification_set(const std::string& path, const recsys::Ratings& data) {
  const nlohmann::json j = core::read_json_file(path);
  if (!j.is_object()) bad(path, "expected a JSON object (an assay modification set)");
  const std::string format = text_field(j, "format", path);
  if (format != kFormat) {
    bad(path, "unsupported format '" + format + "' (expected " + kFormat + ")");
  }
  SavedModificationSet set;
  set.data = text_field(j, "data", path);
  set.key.algorithm = text_field(j, "algorithm", path);
  try {
    set.key.heuristic = parse_heuristic(text_field(j, "heuristic", path));
  } catch (const core::UsageError& e) {
    bad(path, e.detail());
  }
  set.key.size = uint_field(j, "size", path);
  set.key.trial = uint_field(j, "trial", path);
  set.campaign_seed = uint_field(j, "campaign_seed", path);
  set.run_seed = uint_field(j, "run_seed", path);
  set.model_seed = uint_field(j, "model_seed", path);
  set.k = uint_field(j, "k", path);
  if (set.k == 0) bad(path, "'k' must be >= 1");
  set.oracle.fill(std::numeric_limits<double>::quiet_NaN());
  if (j.contains("oracles") && j["oracles"].is_object()) {
    for (std::size_t o = 0; o < kNumOracles; ++o) {
      const auto name = std::string(to_string(kAllOracles[o]));
      if (j["oracles"].contains(name) && j["oracles"][name].is_number()) {
        set.oracle[o] = j["oracles"][name].get<double>();
      }
    }
  }
  const auto& mods = field(j, "modifications", path, "");
  if (!mods.is_array()) bad(path, "'modifications' must be an array");
  for (std::size_t n = 0; n < mods.size(); ++n) {
    const std::string where = "modification " + std::to_string(n) + ": ";
    const auto& e = mods[n];
    recsys::Modification m;
    const std::string kind = text_field(e, "kind", path, where);
    if (kind == "add") {
      m.kind = recsys::Modification::Kind::kAdd;
    } else if (kind == "remove") {
      m.kind = recsys::Modification::Kind::kRemove;
    } else if (kind == "change") {
      m.kind = recsys::Modification::Kind::kChange;
    } else {
      bad(path, where + "unknown kind '" + kind + "' (expected add, remove or change)");
    }
    const std::string user = text_field(e, "user", path, where);
    const std::string item = text_field(e, "item", path, where);
    const auto u = data.find_user(user);
    if (!u) bad(path, where + "user '" + user + "' is not in the data");
    const auto i = data.find_item(item);
    if (!i) bad(path, where + "item '" + item + "' is not in the data");
    m.user = *u;
    m.item = *i;
    if (m.kind != recsys::Modification::Kind::kRemove) {
      const auto& v = field(e, "value", path, where);
      if (!v.is_number()) bad(path, where + "'value' must be a number");
      // Beyond float range the value would become infinite and not survive a rewrite.
      if (!(std::fabs(v.get<double>()) <= std::numeric_limits<float>::max())) {
        bad(path, where + "'value' " + v.dump() + " is out of range for a rating");
      }
      m.value = v.get<float>();
    }
    set.modifications.push_back(m);
  }
  return set;
}

}  // namespace assay::stability
