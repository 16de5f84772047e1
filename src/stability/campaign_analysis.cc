#include "stability/campaign_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "core/bootstrap.h"
#include "core/hypothesis_test.h"
#include "core/multiple_comparisons.h"
#include "core/summary_stats.h"
#include "recsys/recommender_spec.h"

namespace assay::stability {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using CellKey = std::tuple<std::string, Heuristic, std::size_t>;

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
  std::map<CellKey, std::array<std::vector<double>, kNumOracles>> values;
  std::map<CellKey, std::vector<double>> set_sizes;
  for (const auto& r : results.runs) {
    const CellKey key{r.key.algorithm, r.key.heuristic, r.key.size};
    for (std::size_t o = 0; o < kNumOracles; ++o) values[key][o].push_back(r.oracle[o]);
    set_sizes[key].push_back(static_cast<double>(r.n_modifications));
  }
  std::map<CellKey, std::size_t> failed_runs;
  std::map<std::string, std::size_t> failed_noise;
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
        for (std::size_t o = 0; o < kNumOracles; ++o) {
          CellStats c;
          c.algorithm = a;
          c.heuristic = h;
          c.size = n;
          c.oracle = kAllOracles[o];
          const auto& x = it->second[o];
          c.trials = x.size();
          c.mean = core::mean(x);
          c.sd = core::standard_deviation(x);
          std::vector<double> sorted = x;
          std::sort(sorted.begin(), sorted.end());
          c.q1 = sorted.empty() ? kNaN : core::quantile_sorted(sorted, 0.25);
          c.q3 = sorted.empty() ? kNaN : core::quantile_sorted(sorted, 0.75);
          const double n_x = static_cast<double>(x.size());
          const double half =
              x.size() < 2 ? kNaN
                           : core::student_t_quantile(0.975, n_x - 1) * c.sd / std::sqrt(n_x);
          c.ci_low = c.mean - half;
          c.ci_high = c.mean + half;
          c.mean_set_size = core::mean(set_sizes[key]);
          const auto failed = failed_runs.find(key);
          c.failed = failed == failed_runs.end() ? 0 : failed->second;
          c.ratio = kNaN;
          c.p = kNaN;
          c.p_holm = kNaN;
          c.p_bh = kNaN;
          c.baseline_mean = kNaN;
          if (base_it != values.end()) {
            const auto& b = base_it->second[o];
            c.baseline = base;
            c.baseline_mean = core::mean(b);
            c.baseline_zero = c.baseline_mean == 0;
            if (!c.baseline_zero) c.ratio = c.mean / c.baseline_mean;
            c.p = core::welch_t_test(x, b).p;
          }
          s.cells.push_back(c);
        }
      }
    }
  }
  // One family per oracle: every targeted cell with a defined p.
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
    for (std::size_t k = 0; k < family.size(); ++k) {
      family[k]->p_holm = holm[k];
      family[k]->p_bh = bh[k];
    }
  }

  for (const auto& a : config.algorithms) {
    NoiseFloor f;
    f.algorithm = a;
    f.failed = failed_noise.contains(a) ? failed_noise[a] : 0;
    std::array<std::vector<double>, kNumOracles> v;
    for (const auto& n : results.noise) {
      if (n.algorithm != a) continue;
      ++f.trials;
      for (std::size_t o = 0; o < kNumOracles; ++o) v[o].push_back(n.oracle[o]);
    }
    for (std::size_t o = 0; o < kNumOracles; ++o) f.mean[o] = f.trials ? core::mean(v[o]) : kNaN;
    s.noise_floor.push_back(f);
  }

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
  return s;
}

bool survives_correction(const CellStats& c) {
  return c.baseline && c.p_holm < kAlpha && c.mean > c.baseline_mean;
}

PowerCheck top_out_power(const CampaignSummary& summary) {
  PowerCheck power;
  bool first = true;
  for (const auto& c : summary.cells) {
    if (c.oracle != Oracle::kTopOut || is_random_baseline(c.heuristic) || std::isnan(c.p)) {
      continue;
    }
    ++power.targeted;
    power.raw += c.p < kAlpha ? 1 : 0;
    power.holm += c.p_holm < kAlpha ? 1 : 0;
    power.bh += c.p_bh < kAlpha ? 1 : 0;
    power.min_trials = first ? c.trials : std::min(power.min_trials, c.trials);
    first = false;
  }
  power.low = power.targeted > 0 && (power.min_trials < kLowPowerTrials || power.holm == 0);
  return power;
}

std::string low_power_warning(const PowerCheck& power) {
  if (!power.low) return "";
  std::string text =
      "Low power: " + std::to_string(power.raw) + " of " + std::to_string(power.targeted) +
      " targeted Top Out cells reach p < 0.05 against their random baseline, " +
      std::to_string(power.holm) + " after Holm's correction for " +
      std::to_string(power.targeted) + " comparison" + (power.targeted == 1 ? "" : "s") + " (" +
      std::to_string(power.bh) + " after Benjamini-Hochberg's)";
  if (power.min_trials < kLowPowerTrials) {
    text += "; with " + std::to_string(power.min_trials) + " trial" +
            (power.min_trials == 1 ? "" : "s") +
            " in a cell only large effects can be told from chance: run more --trials (" +
            std::to_string(kLowPowerTrials) + " or more)";
  } else {
    text += "; no heuristic is shown to move more users than random modifications do";
  }
  return text + ".";
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
