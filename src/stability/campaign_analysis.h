// Analysis of a campaign (spec "The study"): per (algorithm, heuristic, size, oracle) cell the
// mean, standard deviation, quartiles and 95 % confidence interval over trials, the ratio to the
// random baseline of the same modification type with Welch's t-test p and its Holm and
// Benjamini–Hochberg adjustments over the campaign's comparisons, "baseline 0" flags; the
// training noise floor per algorithm; and the mean modification-set generation time per
// heuristic and size (Table 3).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stability/campaign.h"

namespace assay::stability {

// The significance level of the report, and the trials per cell under which a cell's test is
// too weak to see any but large effects (the report warns).
constexpr double kAlpha = 0.05;
constexpr std::size_t kLowPowerTrials = 10;

struct CellStats {
  std::string algorithm;
  Heuristic heuristic = Heuristic::kArand;
  std::size_t size = 0;
  Oracle oracle = Oracle::kTopOut;
  std::size_t trials = 0;
  double mean = 0;
  double sd = 0;                      // sample sd; NaN for one trial
  std::optional<Heuristic> baseline;  // absent when the campaign lacks the baseline heuristic
  double baseline_mean = 0;
  double ratio = 0;  // mean / baseline_mean; NaN when the baseline is 0 or absent
  double p = 0;      // Welch's two-sided p against the baseline's trials; NaN if undefined
  // p adjusted for the campaign's many comparisons: the family is every cell of this oracle
  // whose heuristic is not a random baseline and whose p is defined. Holm controls the chance
  // of any false finding, Benjamini–Hochberg the expected share of false findings. NaN with p.
  double p_holm = 0;
  double p_bh = 0;
  double q1 = 0, q3 = 0;           // quartiles of the trial values (numpy's linear); NaN if none
  double ci_low = 0, ci_high = 0;  // 95 % t-interval of the mean; NaN for one trial
  bool baseline_zero = false;
  double mean_set_size = 0;  // mean number of modifications actually generated
  std::size_t failed = 0;    // runs of the cell whose recommender (a program) failed
};

struct NoiseFloor {
  std::string algorithm;
  std::size_t trials = 0;
  std::size_t failed = 0;  // retrainings whose recommender (a program) failed
  std::array<double, kNumOracles> mean{};
};

struct TimingStats {
  Heuristic heuristic = Heuristic::kArand;
  std::size_t size = 0;
  std::size_t runs = 0;  // over all algorithms
  double mean_seconds = 0;
  double max_seconds = 0;
};

// One configuration of the campaign: its identity (the normalised spec that names its rows),
// the full spec with defaults filled in, its rating influence I_R on the unmodified data, and
// (when measured, see stability/accuracy.h) its cross-validated accuracy.
struct ConfigurationProfile {
  std::string algorithm;
  std::string spec;
  std::vector<double> rating_values;
  std::vector<std::uint32_t> rating_influence;
  bool has_accuracy = false;
  double rmse = 0, mae = 0;
  std::size_t folds = 0;
};

// The failed runs of one cell (or the noise retrainings of one algorithm): how many, and the
// reason and stderr tail of the first.
struct FailedCell {
  std::string algorithm;
  bool noise = false;
  Heuristic heuristic = Heuristic::kArand;
  std::size_t size = 0;
  std::size_t failed = 0;
  std::string reason, stderr_tail;
};

struct CampaignSummary {
  std::vector<ConfigurationProfile> configurations;  // config.algorithms order
  std::vector<CellStats> cells;                      // config order, oracles innermost
  std::vector<NoiseFloor> noise_floor;
  std::vector<TimingStats> timing;
  std::vector<FailedCell> failed;  // FailedRun order (unit key)
  std::size_t n_runs = 0;
  bool complete = false;
};

CampaignSummary analyse_campaign(const CampaignConfig& config, const CampaignResults& results);

// A targeted cell's finding: its heuristic moved more than its random baseline, and the
// difference survives Holm's correction at kAlpha.
bool survives_correction(const CellStats& cell);

// How much the Top Out comparisons of targeted (non-random) heuristics can tell.
struct PowerCheck {
  std::size_t targeted = 0;      // cells with a defined p
  std::size_t raw = 0;           // of them, p < kAlpha before correction
  std::size_t holm = 0, bh = 0;  // after Holm's / Benjamini–Hochberg's correction
  std::size_t min_trials = 0;    // fewest trials in a targeted cell
  // Fewer than kLowPowerTrials trials in some targeted cell, or no cell survives Holm.
  bool low = false;
};
PowerCheck top_out_power(const CampaignSummary& summary);
// The warning in words (one sentence, no markup), or "" when power is not low.
std::string low_power_warning(const PowerCheck& power);

// The cell for (algorithm, heuristic, size, oracle), or nullptr.
const CellStats* find_cell(const CampaignSummary& summary, const std::string& algorithm,
                           Heuristic heuristic, std::size_t size, Oracle oracle);

}  // namespace assay::stability
