// Which way a model leans, and how sure that is: for each group the perturbed texts speak of,
// its label flips toward the favourable label against those away from it, an exact two-sided
// sign test (core::sign_test: under no lean a flip goes either way with probability 1/2) with
// the Clopper–Pearson interval of the share toward, and Holm's correction across the groups
// compared. A group leans one way only when its corrected p-value is below the level.
// `fair test` writes the tests into summary.json; `fair report` states only the directions that
// survive them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace assay::fairness {

// The level the report states directions at (two-sided, after Holm's correction).
inline constexpr double kDirectionLevel = 0.05;

// The label a direction is told against: "pos", "positive", "1", "yes", "true" or "good" (any
// case), else the model's last label. "" for no labels.
std::string favourable_label(const std::vector<std::string>& labels);
// Whether `label` is one of the names above.
bool names_favourable(const std::string& label);

struct GroupFlips {
  std::string group;
  std::size_t toward = 0, away = 0;  // label flips toward the favourable label, away from it
};

struct DirectionTest {
  std::string group;
  std::size_t toward = 0, away = 0;
  double share = 0;          // toward / (toward + away); NaN without flips
  double low = 0, high = 1;  // its 95 % Clopper–Pearson interval
  double p = 1;              // exact two-sided sign test
  double p_holm = 1;         // after Holm's correction across the groups given
  // +1: leans toward the favourable label at `level`, -1: away from it, 0: neither.
  int lean(double level = kDirectionLevel) const;
};

// One test per group, in the order given.
std::vector<DirectionTest> direction_tests(const std::vector<GroupFlips>& groups);

}  // namespace assay::fairness
