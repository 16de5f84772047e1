#include "stability/campaign_analysis.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <tuple>

#include "core/bootstrap.h"
#include "core/hypothesis_test.h"
#include "core/multiple_comparisons.h"
#include "core/summary_stats.h"
#include "core/unit_plan.h"
#include "recsys/recommender_spec.h"

namespace assay::stability {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using CellKey = std::tuple<std::string, Heuristic, std::size_t>;

// The bootstrap stream of one cell and oracle: a function of the cell's key alone, so a cell's
// interval does not depend on which other cells the campaign holds.
std::uint64_t cell_seed(std::uint64_t campaign_seed, const CellKey& key, std::size_t oracle) {
  return core::unit_seed(campaign_seed, "interval|" + std::get<0>(key) + "|" +
                                            std::string(to_string(std::get<1>(key))) + "|" +
                                            std::to_string(std::get<2>(key)) + "|" +
                                            std::to_string(oracle));
}

}  // namespace

namespace {

using OracleValues = std::array<std::vector<double>, kNumOracles>;

// The failed runs and noise retrainings, one FailedCell per cell (or per algorithm's noise
// floor), and the counts of each cell's and each algorithm's failures.
void add_failures(const CampaignResults& results, CampaignSummary& s,
                  std::map<CellKey, std::size_t>& failed_runs,
                  std::map<std::string, std::size_t>& failed_noise) {
  for (const auto& f : results.failures) {
    if (f.noise) {
      ++failed_noise[f.algorithm];
    } else {
      ++failed_runs[CellKey{f.algorithm, f.heuristic, f.size}];
    }
    auto it = std::find_if(s.failed.begin(), s.failed.end(), [&](const FailedCell& c) {
      return c.algorithm == f.algorithm && c.noise == f.noise &&
             (f.noise || (c.heuristic == f.heuristic && c.size == f.size));
    });
    if (it == s.failed.end()) {
      FailedCell c;
      c.algorithm = f.algorithm;
      c.noise = f.noise;
      c.heuristic = f.heuristic;
      c.size = f.size;
      c.reason = f.reason;
      c.stderr_tail = f.stderr_tail;
      s.failed.push_back(std::move(c));
      it = s.failed.end() - 1;
    }
    ++it->failed;
  }
}

// One cell's statistics under oracle `o`: its trials `x` and, when it has one, its random
// baseline's trials `b` (the tests and the bootstrap against them).
CellStats cell_stats(const CampaignConfig& config, const CellKey& key, std::size_t o,
                     const std::vector<double>& x, const std::vector<double>* b, Heuristic base) {
  CellStats c;
  c.algorithm = std::get<0>(key);
  c.heuristic = std::get<1>(key);
  c.size = std::get<2>(key);
  c.oracle = kAllOracles[o];
  c.trials = x.size();
  c.mean = core::mean(x);
  c.sd = core::standard_deviation(x);
  std::vector<double> sorted = x;
  std::sort(sorted.begin(), sorted.end());
  c.q1 = sorted.empty() ? kNaN : core::quantile_sorted(sorted, 0.25);
  c.q3 = sorted.empty() ? kNaN : core::quantile_sorted(sorted, 0.75);
  const double n_x = static_cast<double>(x.size());
  const double half =
      x.size() < 2 ? kNaN : core::student_t_quantile(0.975, n_x - 1) * c.sd / std::sqrt(n_x);
  c.ci_low = c.mean - half;
  c.ci_high = c.mean + half;
  c.ratio = kNaN;
  c.p = c.p_holm = c.p_bh = c.p_welch = c.p_welch_holm = c.mde = kNaN;
  c.superiority = c.difference = c.difference_low = c.difference_high = kNaN;
  c.baseline_mean = kNaN;
  if (!b) return c;
  c.baseline = base;
  c.baseline_mean = core::mean(*b);
  c.baseline_zero = c.baseline_mean == 0;
  if (!c.baseline_zero) c.ratio = c.mean / c.baseline_mean;
  const core::RankSumResult rank = core::rank_sum_test(x, *b);
  c.p = rank.p;
  c.p_exact = rank.exact;
  c.superiority = rank.superiority;
  c.p_welch = core::welch_t_test(x, *b).p;
  core::BootstrapOptions boot;
  boot.seed = cell_seed(config.seed, key, o);
  const auto diff = core::bootstrap_mean_difference_ci(x, *b, boot);
  c.difference = diff.estimate;
  c.difference_low = diff.low;
  c.difference_high = diff.high;
  return c;
}

// One family per oracle: every targeted cell with a defined p, adjusted by Holm's and
// Benjamini-Hochberg's procedures; every targeted cell with a baseline gets the effect it
// could detect in a family of this size.
void correct_families(CampaignSummary& s) {
  for (const auto oracle : kAllOracles) {
    std::vector<CellStats*> family;
    std::vector<double> p;
    for (auto& c : s.cells) {
      if (c.oracle != oracle || is_random_baseline(c.heuristic) || std::isnan(c.p)) continue;
      family.push_back(&c);
      p.push_back(c.p);
    }
    const auto holm = core::holm_adjust(p);
    const auto bh = core::benjamini_hochberg_adjust(p);
    std::vector<double> welch;
    for (const auto* c : family) welch.push_back(c->p_welch);
    const auto welch_holm = core::holm_adjust(welch);
    for (std::size_t k = 0; k < family.size(); ++k) {
      family[k]->p_holm = holm[k];
      family[k]->p_bh = bh[k];
      family[k]->p_welch_holm = welch_holm[k];
    }
    const double level = kAlpha / static_cast<double>(std::max<std::size_t>(1, family.size()));
    const double z = core::normal_quantile(1 - level / 2) + core::normal_quantile(kPower);
    for (auto& c : s.cells) {
      if (c.oracle != oracle || is_random_baseline(c.heuristic) || !c.baseline) continue;
      const auto* base = find_cell(s, c.algorithm, *c.baseline, c.size, oracle);
      if (!base || c.trials < 2 || base->trials < 2 ||
          core::rank_sum_min_p(c.trials, base->trials) >= level) {
        c.mde = std::numeric_limits<double>::infinity();
        continue;
      }
      c.mde = z * std::sqrt(c.sd * c.sd / static_cast<double>(c.trials) +
                            base->sd * base->sd / static_cast<double>(base->trials));
    }
  }
}

// Each algorithm's noise floor (the mean of its retrainings with other seeds), and each cell's.
void add_noise_floors(const CampaignConfig& config, const CampaignResults& results,
                      std::map<std::string, std::size_t>& failed_noise, CampaignSummary& s) {
  for (const auto& a : config.algorithms) {
    NoiseFloor f;
    f.algorithm = a;
    f.failed = failed_noise.contains(a) ? failed_noise[a] : 0;
    OracleValues v;
    for (const auto& n : results.noise) {
      if (n.algorithm != a) continue;
      ++f.trials;
      for (std::size_t o = 0; o < kNumOracles; ++o) v[o].push_back(n.oracle[o]);
    }
    for (std::size_t o = 0; o < kNumOracles; ++o) f.mean[o] = f.trials ? core::mean(v[o]) : kNaN;
    s.noise_floor.push_back(f);
  }
  for (auto& c : s.cells) {
    c.noise_floor = kNaN;
    for (const auto& f : s.noise_floor) {
      if (f.algorithm == c.algorithm) {
        c.noise_floor = f.mean[static_cast<std::size_t>(c.oracle)];
      }
    }
    c.within_noise = c.noise_floor > 0 && c.mean <= c.noise_floor;
  }
}

// Set generation time per (heuristic, size).
void add_timing(const CampaignConfig& config, const CampaignResults& results, CampaignSummary& s) {
  for (const auto h : config.heuristics) {
    for (const auto n : config.sizes) {
      TimingStats t;
      t.heuristic = h;
      t.size = n;
      double sum = 0;
      for (const auto& r : results.runs) {
        if (r.key.heuristic != h || r.key.size != n) continue;
        ++t.runs;
        sum += r.generation_seconds;
        t.max_seconds = std::max(t.max_seconds, r.generation_seconds);
      }
      t.mean_seconds = t.runs ? sum / static_cast<double>(t.runs) : kNaN;
      s.timing.push_back(t);
    }
  }
}

}  // namespace

CampaignSummary analyse_campaign(const CampaignConfig& config, const CampaignResults& results) {
  CampaignSummary s;
  s.n_runs = results.runs.size();
  s.complete = results.complete;
  for (const auto& b : results.baselines) {
    ConfigurationProfile p;
    p.algorithm = b.algorithm;
    p.spec = recsys::parse_recommender_spec(b.algorithm).full();
    p.rating_values = b.influence.rating_values;
    p.rating_influence = b.influence.rating;
    s.configurations.push_back(std::move(p));
  }

  // Trials of each (algorithm, heuristic, size), per oracle.
  std::map<CellKey, OracleValues> values;
  std::map<CellKey, std::vector<double>> set_sizes;
  for (const auto& r : results.runs) {
    const CellKey key{r.key.algorithm, r.key.heuristic, r.key.size};
    for (std::size_t o = 0; o < kNumOracles; ++o) values[key][o].push_back(r.oracle[o]);
    set_sizes[key].push_back(static_cast<double>(r.n_modifications));
  }
  std::map<CellKey, std::size_t> failed_runs;
  std::map<std::string, std::size_t> failed_noise;
  add_failures(results, s, failed_runs, failed_noise);
  const auto has = [&](const std::string& a, Heuristic h) {
    return std::find(config.heuristics.begin(), config.heuristics.end(), h) !=
               config.heuristics.end() &&
           std::find(config.algorithms.begin(), config.algorithms.end(), a) !=
               config.algorithms.end();
  };
  for (const auto& a : config.algorithms) {
    for (const auto h : config.heuristics) {
      for (const auto n : config.sizes) {
        const CellKey key{a, h, n};
        const auto it = values.find(key);
        if (it == values.end()) continue;  // no finished trial (interrupted campaign)
        const Heuristic base = random_baseline(h);
        const auto base_it = has(a, base) ? values.find(CellKey{a, base, n}) : values.end();
        const auto failed = failed_runs.find(key);
        for (std::size_t o = 0; o < kNumOracles; ++o) {
          CellStats c = cell_stats(config, key, o, it->second[o],
                                   base_it == values.end() ? nullptr : &base_it->second[o], base);
          c.mean_set_size = core::mean(set_sizes[key]);
          c.failed = failed == failed_runs.end() ? 0 : failed->second;
          s.cells.push_back(c);
        }
      }
    }
  }
  correct_families(s);
  add_noise_floors(config, results, failed_noise, s);
  add_timing(config, results, s);
  return s;
}

bool survives_correction(const CellStats& c) {
  return c.baseline && c.p_holm < kAlpha && c.mean > c.baseline_mean && c.superiority > 0.5;
}

PowerCheck oracle_power(const CampaignSummary& summary, Oracle oracle, double min_effect) {
  PowerCheck power;
  power.oracle = oracle;
  power.min_effect = min_effect;
  bool first = true;
  for (const auto& c : summary.cells) {
    if (c.oracle != oracle || is_random_baseline(c.heuristic) || !c.baseline) continue;
    ++power.compared;
    if (!survives_correction(c) && c.mde > min_effect) {
      ++power.underpowered;
      if (std::isinf(c.mde)) {
        ++power.undetectable;
      } else {
        power.largest_mde = std::max(power.largest_mde, c.mde);
      }
    }
    if (std::isnan(c.p)) continue;
    ++power.targeted;
    power.raw += c.p < kAlpha ? 1 : 0;
    power.holm += c.p_holm < kAlpha ? 1 : 0;
    power.findings += survives_correction(c) ? 1 : 0;
    power.bh += c.p_bh < kAlpha ? 1 : 0;
    power.min_trials = first ? c.trials : std::min(power.min_trials, c.trials);
    first = false;
  }
  power.low = power.underpowered > 0;
  return power;
}

std::string low_power_warning(const PowerCheck& power) {
  if (!power.low) return "";
  const auto count = [](std::size_t n, const std::string& word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  char effect[32];
  std::snprintf(effect, sizeof effect, "%g", power.min_effect);
  std::string text =
      "Low power: of " +
      count(power.compared, "targeted " + std::string(title(power.oracle)) + " cell") + ", " +
      std::to_string(power.underpowered) +
      " without a finding could not have detected a difference of " + effect +
      " (--min-effect) at 80 % power after Holm's correction";
  if (power.undetectable > 0) {
    text += "; " + std::to_string(power.undetectable) +
            " of them hold too few trials for the "
            "rank-sum test to reach the corrected level whatever the effect";
  }
  if (power.largest_mde > 0) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g", power.largest_mde);
    text += std::string("; the largest finite minimum detectable difference is ") + buf;
  }
  text += ". " + std::to_string(power.raw) + " of " + std::to_string(power.targeted) +
          " targeted cells with a test";
  if (power.compared > power.targeted) {
    text += " (the other " + std::to_string(power.compared - power.targeted) +
            " showed one value in every trial of the cell and its baseline)";
  }
  text += " reach p < 0.05 before the correction, " + std::to_string(power.holm) +
          " after Holm's (" + std::to_string(power.bh) +
          " after Benjamini-Hochberg's): run more --trials to tell small effects from chance.";
  return text;
}

const CellStats* find_cell(const CampaignSummary& summary, const std::string& algorithm,
                           Heuristic heuristic, std::size_t size, Oracle oracle) {
  for (const auto& c : summary.cells) {
    if (c.algorithm == algorithm && c.heuristic == heuristic && c.size == size &&
        c.oracle == oracle) {
      return &c;
    }
  }
  return nullptr;
}

}  // namespace assay::stability
