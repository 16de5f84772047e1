// Recommender configurations as text: `NAME[:key=value[:key=value...]]`, e.g.
// `funk-svd:damping=0:clamp=none`, `user-user:neighbors=30`, `hybrid:epochs=50`.
//
// NAME is an algorithm (user-user, item-item, funk-svd, hybrid) or a named profile of one
// (funk-svd-lenskit: funk-svd with LensKit 3's documented defaults). The user's own program,
// `cmd:PROGRAM [ARGS...]` or `cmd+persistent:PROGRAM [ARGS...]` (recsys/command_recommender.h),
// is a spec too: its name is "cmd" or "cmd+persistent", it has no keys, and its normal form
// writes the command's words separated by one blank (quoted where needed). A recommender object
// of the Python module, `python:NAME` (recsys/external_recommender.h), is named "python", its
// NAME the one word of `command`, its normal form the text itself. Every key of the name is
// a documented hyper-parameter (recommender_spec_keys() lists them with their defaults);
// an unknown name, an unknown or repeated key, or a bad value is a core::UsageError naming it.
//
// Two normal forms of a parsed spec:
//  - identity(): the name followed by the keys whose value differs from the name's default,
//    in table order, values written canonically (shortest round-trip decimal). A default
//    configuration is the plain name, so stores and run seeds of earlier campaigns stay valid,
//    and two spellings of one configuration (`funk-svd`, `funk-svd:damping=5.0`) are one row.
//  - full(): the name followed by every key with its value (defaults filled in), which the
//    reports show beside the identity.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recsys/recommender.h"

namespace assay::recsys {

struct SpecKey {
  std::string key;
  std::string default_value;  // canonical
  std::string help;           // the accepted values and meaning
};

struct RecommenderSpec {
  std::string name;  // the algorithm or profile; "cmd" or "cmd+persistent" for a program
  // A program's words, or a Python object's NAME (empty for built-in algorithms).
  std::vector<std::string> command;
  // Every key of `name` in table order with its canonical value (defaults filled in).
  std::vector<std::pair<std::string, std::string>> values;

  std::string identity() const;
  std::string full() const;
  // The canonical value of `key` (which must be a key of `name`).
  const std::string& value(std::string_view key) const;
};

// Parses and validates `text`. Throws core::UsageError.
RecommenderSpec parse_recommender_spec(std::string_view text);

// parse_recommender_spec(text).identity().
std::string normalize_recommender_spec(std::string_view text);

// The keys of an algorithm or profile name (throws core::UsageError for an unknown name).
const std::vector<SpecKey>& recommender_spec_keys(std::string_view name);

// Algorithms and profiles: user-user, item-item, funk-svd, funk-svd-lenskit, hybrid.
const std::vector<std::string>& recommender_spec_names();

// Throws core::UsageError for a program's or an object's spec: they give top-k lists, not a
// model (train them with stability::train_and_recommend).
std::unique_ptr<Recommender> make_recommender(const RecommenderSpec& spec);

}  // namespace assay::recsys
