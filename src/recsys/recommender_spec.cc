#include "recsys/recommender_spec.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "core/child_process.h"
#include "core/error.h"
#include "recsys/external_recommender.h"
#include "recsys/funk_svd.h"
#include "recsys/hybrid.h"
#include "recsys/item_item.h"
#include "recsys/user_user.h"

namespace assay::recsys {
namespace {

// How a key's value is read and written canonically.
enum class Kind : std::uint8_t {
  kCount,        // integer >= 1
  kPositive,     // float > 0
  kNonNegative,  // float >= 0
  kPositiveF64,  // double > 0
  kNonNegativeF64,
  kChoice,         // one of `choices`
  kCountOrChoice,  // integer in [1, max_count], or one of `choices`
};

struct KeyDef {
  const char* key;
  Kind kind;
  const char* default_value;
  const char* help;
  std::vector<std::string> choices = {};
  // kCount: the largest value, which bounds the memory and time of one training.
  unsigned long long max_count = 0;
};

struct NameDef {
  std::string name;
  std::vector<KeyDef> keys;
};

std::vector<KeyDef> neighbourhood_keys() {
  return {
      {"neighbors",
       Kind::kCount,
       "20",
       "neighbours per score (integer in [1, 100000])",
       {},
       100'000},
      {"min-sim", Kind::kNonNegative, "1e-06", "similarities at or below this are dropped (>= 0)"}};
}

std::vector<KeyDef> item_item_keys() {
  std::vector<KeyDef> keys = neighbourhood_keys();
  keys.push_back({"keep",
                  Kind::kCountOrChoice,
                  "auto",
                  "similar items kept per item: all (a dense n_items^2 matrix, at most 16384 "
                  "items), K (the K most similar, integer in [1, 1000000]: sparse lists, memory "
                  "O(n_items K)), or auto (all up to 16384 items, 1000 above)",
                  {"auto", "all"},
                  1'000'000});
  return keys;
}

std::vector<KeyDef> funk_keys(const char* damping, const char* clamp, const char* order) {
  return {
      {"features", Kind::kCount, "25", "latent features (integer in [1, 1000])", {}, 1'000},
      {"epochs", Kind::kCount, "125", "SGD epochs per feature (integer in [1, 10000])", {}, 10'000},
      {"learning-rate", Kind::kPositive, "0.001", "SGD learning rate (> 0)"},
      {"regularization", Kind::kNonNegative, "0.015", "SGD regularisation (>= 0)"},
      {"initial-value", Kind::kPositive, "0.1", "initial feature value (> 0)"},
      {"damping", Kind::kNonNegativeF64, damping, "bias baseline damping (>= 0)"},
      {"clamp",
       Kind::kChoice,
       clamp,
       "scale: clamp every estimate to the rating scale; none: never",
       {"scale", "none"}},
      {"order",
       Kind::kChoice,
       order,
       "stable: SGD order a hash of (seed, user, item); shuffle: a fresh permutation of "
       "the ratings for every training set",
       {"stable", "shuffle"}}};
}

const std::vector<NameDef>& table() {
  static const std::vector<NameDef> kTable = {
      {"user-user", neighbourhood_keys()},
      {"item-item", item_item_keys()},
      {"funk-svd", funk_keys("5", "scale", "stable")},
      {"funk-svd-lenskit", funk_keys("0", "none", "shuffle")},
      {"hybrid",
       {{"components", Kind::kCount, "10", "embedding dimension (integer in [1, 1000])", {}, 1'000},
        {"epochs", Kind::kCount, "30", "training epochs (integer in [1, 10000])", {}, 10'000},
        {"max-sampled",
         Kind::kCount,
         "10",
         "WARP negatives drawn per positive (integer in [1, 1000])",
         {},
         1'000},
        {"learning-rate", Kind::kPositive, "0.05", "adagrad learning rate (> 0)"},
        {"attributes",
         Kind::kChoice,
         "yes",
         "yes: item features = identity + genres; no: identity only",
         {"yes", "no"}}}},
  };
  return kTable;
}

const NameDef& def_of(std::string_view name) {
  for (const auto& d : table()) {
    if (d.name == name) return d;
  }
  std::string known;
  for (const auto& d : table()) known += (known.empty() ? "" : ", ") + d.name;
  throw core::UsageError("unknown algorithm '" + std::string(name) + "'; expected one of " + known +
                         ", or cmd:PROGRAM [ARGS...] (a program of your own, docs/stability.md)");
}

[[noreturn]] void bad_value(const std::string& name, const KeyDef& k, std::string_view value) {
  throw core::UsageError("algorithm " + name + ": bad value '" + std::string(value) +
                         "' for key '" + k.key + "' (" + k.help + ")");
}

template <class T>
std::string shortest(T v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// The canonical spelling of `value` for key `k`.
std::string canonical(const std::string& name, const KeyDef& k, std::string_view value) {
  if (value.empty()) bad_value(name, k, value);
  const char* first = value.data();
  const char* last = value.data() + value.size();
  switch (k.kind) {
    case Kind::kCount: {
      unsigned long long v = 0;
      const auto r = std::from_chars(first, last, v);
      if (r.ec != std::errc() || r.ptr != last || v == 0 || v > k.max_count) {
        bad_value(name, k, value);
      }
      return std::to_string(v);
    }
    case Kind::kPositive:
    case Kind::kNonNegative:
    case Kind::kPositiveF64:
    case Kind::kNonNegativeF64: {
      double v = 0;
      const auto r = std::from_chars(first, last, v);
      if (r.ec != std::errc() || r.ptr != last || !std::isfinite(v)) bad_value(name, k, value);
      const bool positive = k.kind == Kind::kPositive || k.kind == Kind::kPositiveF64;
      if (positive ? !(v > 0) : !(v >= 0)) bad_value(name, k, value);
      if (k.kind == Kind::kPositive || k.kind == Kind::kNonNegative) {
        const auto f = static_cast<float>(v);
        if (!std::isfinite(f) || (positive && !(f > 0))) bad_value(name, k, value);
        return shortest(f == 0.0f ? 0.0f : f);  // no "-0"
      }
      return shortest(v == 0.0 ? 0.0 : v);
    }
    case Kind::kChoice:
    case Kind::kCountOrChoice:
      for (const auto& c : k.choices) {
        if (value == c) return c;
      }
      if (k.kind == Kind::kCountOrChoice) {
        unsigned long long v = 0;
        const auto r = std::from_chars(first, last, v);
        if (r.ec == std::errc() && r.ptr == last && v >= 1 && v <= k.max_count) {
          return std::to_string(v);
        }
      }
      bad_value(name, k, value);
  }
  bad_value(name, k, value);
}

std::size_t count_of(const RecommenderSpec& s, std::string_view key) {
  return static_cast<std::size_t>(std::stoull(s.value(key)));
}
float float_of(const RecommenderSpec& s, std::string_view key) {
  float v = 0;
  const std::string& text = s.value(key);
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}
double double_of(const RecommenderSpec& s, std::string_view key) {
  double v = 0;
  const std::string& text = s.value(key);
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

bool is_program(const std::string& name) {
  return name == "cmd" || name == "cmd+persistent";
}

// A recommender object of the Python module (python:NAME).
bool is_object(const std::string& name) {
  return name == "python";
}

// The words as split_command_words reads them back.
std::string join_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    if (!w.empty() && w.find_first_of(" \t\n'\"\\") == std::string::npos) {
      out += w;
      continue;
    }
    out += '"';
    for (const char c : w) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace

std::string RecommenderSpec::identity() const {
  if (is_program(name)) return name + ":" + join_words(command);
  if (is_object(name)) return name + ":" + command.front();
  std::string out = name;
  const NameDef& d = def_of(name);
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (values[k].second != d.keys[k].default_value) {
      out += ":" + values[k].first + "=" + values[k].second;
    }
  }
  return out;
}

std::string RecommenderSpec::full() const {
  if (is_program(name) || is_object(name)) return identity();
  std::string out = name;
  for (const auto& [key, value] : values) out += ":" + key + "=" + value;
  return out;
}

const std::string& RecommenderSpec::value(std::string_view key) const {
  for (const auto& kv : values) {
    if (kv.first == key) return kv.second;
  }
  throw core::UsageError("algorithm " + name + " has no key '" + std::string(key) + "'");
}

RecommenderSpec parse_recommender_spec(std::string_view text) {
  const std::size_t colon = text.find(':');
  RecommenderSpec spec;
  if (is_command_spec(text)) {
    spec.name = std::string(text.substr(0, colon));
    spec.command = core::split_command_words(std::string(text.substr(colon + 1)));
    if (spec.command.empty() || spec.command[0].empty()) {
      throw core::UsageError("algorithm '" + std::string(text) + "' names no program (expected " +
                             spec.name + ":PROGRAM [ARGS...])");
    }
    return spec;
  }
  if (is_hosted_spec(text)) {
    spec.name = std::string(text.substr(0, colon));
    spec.command = {std::string(text.substr(colon + 1))};
    if (spec.command[0].empty())
      throw core::UsageError("algorithm '" + std::string(text) + "' names no object (expected " +
                             spec.name + ":NAME)");
    return spec;
  }
  spec.name = std::string(text.substr(0, colon));
  const NameDef& d = def_of(spec.name);
  std::vector<bool> set(d.keys.size(), false);
  spec.values.reserve(d.keys.size());
  for (const auto& k : d.keys) spec.values.emplace_back(k.key, k.default_value);
  std::string_view rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon);
  while (!rest.empty()) {
    rest.remove_prefix(1);  // ':'
    const std::size_t end = rest.find(':');
    const std::string_view item = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw core::UsageError("algorithm " + spec.name + ": '" + std::string(item) +
                             "' is not key=value");
    }
    const std::string key(item.substr(0, eq));
    std::size_t index = d.keys.size();
    for (std::size_t k = 0; k < d.keys.size(); ++k) {
      if (key == d.keys[k].key) index = k;
    }
    if (index == d.keys.size()) {
      std::string known;
      for (const auto& k : d.keys) known += (known.empty() ? "" : ", ") + std::string(k.key);
      throw core::UsageError("algorithm " + spec.name + ": unknown key '" + key +
                             "'; expected one of " + known);
    }
    if (set[index]) {
      throw core::UsageError("algorithm " + spec.name + ": key '" + key + "' given twice");
    }
    set[index] = true;
    spec.values[index].second = canonical(spec.name, d.keys[index], item.substr(eq + 1));
  }
  return spec;
}

std::string normalize_recommender_spec(std::string_view text) {
  return parse_recommender_spec(text).identity();
}

const std::vector<SpecKey>& recommender_spec_keys(std::string_view name) {
  static const std::vector<std::vector<SpecKey>> kKeys = [] {
    std::vector<std::vector<SpecKey>> all;
    for (const auto& d : table()) {
      std::vector<SpecKey> keys;
      for (const auto& k : d.keys) keys.push_back({k.key, k.default_value, k.help});
      all.push_back(std::move(keys));
    }
    return all;
  }();
  const NameDef& d = def_of(name);
  return kKeys[static_cast<std::size_t>(&d - table().data())];
}

const std::vector<std::string>& recommender_spec_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const auto& d : table()) names.push_back(d.name);
    return names;
  }();
  return kNames;
}

std::unique_ptr<Recommender> make_recommender(const RecommenderSpec& s) {
  if (is_program(s.name)) {
    throw core::UsageError("algorithm " + s.identity() +
                           " is a program: it gives top-k lists, not scores");
  }
  if (is_object(s.name)) {
    throw core::UsageError("algorithm " + s.identity() +
                           " is a recommender object of the Python module: it gives top-k "
                           "lists, not scores");
  }
  if (s.name == "user-user" || s.name == "item-item") {
    const std::size_t neighbors = count_of(s, "neighbors");
    const float min_sim = float_of(s, "min-sim");
    if (s.name == "user-user")
      return std::make_unique<UserUser>(UserUserOptions{neighbors, min_sim});
    ItemItemOptions o;
    o.n_neighbors = neighbors;
    o.min_similarity = min_sim;
    const std::string& keep = s.value("keep");
    o.keep = keep == "auto"  ? ItemItemOptions::kKeepAuto
             : keep == "all" ? ItemItemOptions::kKeepAll
                             : count_of(s, "keep");
    return std::make_unique<ItemItem>(o);
  }
  if (s.name == "funk-svd" || s.name == "funk-svd-lenskit") {
    FunkSvdOptions o;
    o.n_features = count_of(s, "features");
    o.n_epochs = count_of(s, "epochs");
    o.learning_rate = float_of(s, "learning-rate");
    o.regularization = float_of(s, "regularization");
    o.initial_value = float_of(s, "initial-value");
    o.bias_damping = double_of(s, "damping");
    o.clamp = s.value("clamp") == "scale";
    o.order = s.value("order") == "stable" ? FunkSvdOrder::kStable : FunkSvdOrder::kShuffle;
    return std::make_unique<FunkSvd>(o, s.name);
  }
  HybridOptions o;
  o.n_components = count_of(s, "components");
  o.n_epochs = count_of(s, "epochs");
  o.max_sampled = count_of(s, "max-sampled");
  o.learning_rate = float_of(s, "learning-rate");
  o.use_attributes = s.value("attributes") == "yes";
  return std::make_unique<Hybrid>(o);
}

}  // namespace assay::recsys
