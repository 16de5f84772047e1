// Analysis of a campaign (spec "The study"): per (algorithm, heuristic, size, oracle) cell the
// mean, standard deviation, quartiles and 95 % confidence interval over trials, the ratio to the
// random baseline of the same modification type, the rank-sum test's p with effect sizes, and
// its Holm and Benjamini–Hochberg adjustments over the campaign's comparisons, "baseline 0" flags;
// the training noise floor per algorithm; and the mean modification-set generation time per
// heuristic and size (Table 3).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stability/campaign.h"

namespace assay::stability {

// The significance level of the report.
constexpr double kAlpha = 0.05;
// The power the minimum detectable effect is computed for, and the default of the effect (a
// difference of means of the oracle: 0.05 = 5 % of users for Top Out) that a campaign should be
// able to detect (`--min-effect`).
constexpr double kPower = 0.8;
constexpr double kDefaultMinEffect = 0.05;

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
  // The rank-sum test of the cell's trials against the baseline's (core::rank_sum_test: exact
  // for small cells, valid for bounded, tied, zero-inflated values): two-sided p, NaN when
  // there is no baseline or every trial of both has the same value.
  double p = 0;
  bool p_exact = false;
  // Effect sizes: the probability that a trial of the cell moves more than one of the baseline
  // (ties 1/2; 0.5 = no effect), and the difference of means with its seeded percentile
  // bootstrap 95 % interval. NaN without a baseline.
  double superiority = 0;
  double difference = 0, difference_low = 0, difference_high = 0;
  // p adjusted for the campaign's many comparisons: the family is every cell of this oracle
  // whose heuristic is not a random baseline and whose p is defined. Holm controls the chance
  // of any false finding, Benjamini–Hochberg the expected share of false findings. NaN with p.
  double p_holm = 0;
  double p_bh = 0;
  // Welch's t-test on the same trials and its Holm adjustment over the same family, kept to
  // show what the choice of test changes; no finding rests on it.
  double p_welch = 0;
  double p_welch_holm = 0;
  // The minimum detectable effect: the smallest difference of means this design (trials of the
  // cell and its baseline, the variances they show, the family's size m) detects with 80 %
  // power at Holm's strictest level kAlpha / m, by the normal approximation; infinite when no
  // outcome of the rank-sum test with these trial counts reaches that level, NaN without a
  // baseline.
  double mde = 0;
  double q1 = 0, q3 = 0;           // quartiles of the trial values (numpy's linear); NaN if none
  double ci_low = 0, ci_high = 0;  // 95 % t-interval of the mean; NaN for one trial
  bool baseline_zero = false;
  // The algorithm's seed noise floor for this oracle (mean over retrainings on the unmodified
  // data with other seeds; NaN without retrainings), and whether the cell's mean is within it:
  // then the modifications moved no more than a reseed alone, and the instability is the
  // model's own, not the data's.
  double noise_floor = 0;
  bool within_noise = false;
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

// A targeted cell's finding: its heuristic moved more than its random baseline (a larger mean
// and a probability of superiority above 1/2), and the rank-sum test's p survives Holm's
// correction at kAlpha.
bool survives_correction(const CellStats& cell);

// How much one oracle's comparisons of targeted (non-random) heuristics can tell.
struct PowerCheck {
  Oracle oracle = Oracle::kTopOut;
  std::size_t compared = 0;      // targeted cells with a baseline in the campaign
  std::size_t targeted = 0;      // of them, cells with a defined p
  std::size_t raw = 0;           // of them, p < kAlpha before correction
  std::size_t holm = 0, bh = 0;  // after Holm's / Benjamini–Hochberg's correction
  std::size_t findings = 0;      // of the Holm ones, cells above their baseline (findings)
  std::size_t min_trials = 0;    // fewest trials in a targeted cell
  double min_effect = kDefaultMinEffect;
  std::size_t underpowered = 0;  // targeted cells without a finding whose mde > min_effect
  std::size_t undetectable = 0;  // of them, cells whose mde is infinite (too few trials)
  double largest_mde = 0;        // the largest finite mde among the underpowered cells
  // Some targeted cell without a finding could not have detected a difference of min_effect.
  bool low = false;
};
PowerCheck oracle_power(const CampaignSummary& summary, Oracle oracle,
                        double min_effect = kDefaultMinEffect);
// The warning in words (one sentence, no markup), or "" when power is not low.
std::string low_power_warning(const PowerCheck& power);

// The cell for (algorithm, heuristic, size, oracle), or nullptr.
const CellStats* find_cell(const CampaignSummary& summary, const std::string& algorithm,
                           Heuristic heuristic, std::size_t size, Oracle oracle);

}  // namespace assay::stability
