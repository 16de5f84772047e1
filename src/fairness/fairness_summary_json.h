// summary.json of a fairness test (`assay fair test`, assay.fair.test in Python): the counts of
// a FairnessTestSummary, the 20 substitutions that flipped most labels (with the labels they
// flipped toward), the score shifts per group (n, mean, min, p05, median, p95, max), per group
// the direction (violations by the label flipped toward, each label's score change) and the
// severity (violations at a few least score changes), and the inputs by number of
// perturbations (Fig. 4 of `fair report`). The answer cache's counts, when there is one, are
// the caller's. Its "format" is kFairnessSummaryFormat; a file without one is the first
// format (no labels, direction or severity), which read_fairness_summary still reads.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fairness/fairness_test_runner.h"

namespace assay::fairness {

inline constexpr const char* kFairnessSummaryFormat = "assay-fair-test-summary/2";

// The least score changes at which summary.json counts violations besides the run's own.
inline const std::vector<double> kSeverityThresholds{0.0, 0.1, 0.2, 0.3};

// `data` names the inputs (the file as given; "" leaves the field out).
nlohmann::ordered_json fairness_summary_json(const FairnessTestSummary& summary,
                                             const std::string& model_identity,
                                             const std::string& attribute,
                                             const std::string& data = "");

// Which way one group pushes the model (summary.json's by_group), read back.
struct SummaryGroup {
  std::string name;  // "female": the group the perturbed texts speak of
  std::size_t perturbations = 0, violations = 0;
  std::map<std::string, std::size_t> flips_toward;  // label -> violations flipped to it
  // label -> those of them whose original's top score was tied (empty in older files)
  std::map<std::string, std::size_t> from_tie;
  std::map<std::string, double> mean_change;   // label -> its mean score change
  std::map<double, std::size_t> at_min_delta;  // least score change -> label flips
};

// One substitution between groups (summary.json's by_group_pair), read back: "male" → "female",
// or "" → "female" for an insertion.
struct SummaryGroupPair {
  std::string from, to;
  std::size_t perturbations = 0, violations = 0;
  std::map<std::string, std::size_t> flips_toward;  // label -> violations flipped to it
};

// Insertions compared with each other (FairnessTestSummary::n_insertion_sites and after).
struct InsertionCounts {
  std::size_t places = 0, places_groups_differ = 0, violations_groups_differ = 0;
};

// summary.json read back: what `fair report` shows of it.
struct FairnessSummaryFile {
  std::string model, attribute;
  std::string data;  // the inputs as fair test was given them ("" when summary.json lacks it)
  std::size_t inputs = 0, mutable_inputs = 0, perturbations = 0;
  std::size_t violations = 0, inputs_with_violations = 0;
  // By mutation kind ("analogy", "active", "name", "group"): those the file names.
  std::map<std::string, std::size_t> perturbations_by_kind, violations_by_kind;
  // Inputs by number of perturbations (index = count); empty when summary.json predates it.
  std::vector<std::size_t> perturbations_per_input;
  std::optional<InsertionCounts> insertions;  // absent when summary.json predates them
  // Direction and severity: from a summary.json of format 2 (has_direction), else empty.
  bool has_direction = false;
  std::vector<std::string> labels;  // the model's
  double min_delta = 0;             // the least score change violations were counted at
  std::vector<SummaryGroup> groups;
  std::vector<SummaryGroupPair> group_pairs;   // empty when summary.json predates them
  std::map<double, std::size_t> at_min_delta;  // least score change -> label flips
};

// Reads summary.json of either format. Throws core::IoError when it cannot be read,
// core::ParseError naming the file (and line, for JSON syntax) for an unknown format, malformed
// content or a missing field.
FairnessSummaryFile read_fairness_summary(const std::string& path);

// "0", "0.1", "0.25": how summary.json writes a threshold as a key (the shortest decimal that
// reads back as the same number).
std::string threshold_key(double min_delta);

}  // namespace assay::fairness
