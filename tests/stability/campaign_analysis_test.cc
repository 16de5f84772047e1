#include "stability/campaign_analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace assay::stability {
namespace {

RunResult run(Heuristic h, std::size_t trial, double top_out, double jaccard, double seconds) {
  RunResult r;
  r.key = {"x", h, 10, trial};
  r.n_modifications = 10;
  r.generation_seconds = seconds;
  r.oracle = {top_out, jaccard, 0.0, 0.5};
  return r;
}

TEST(CampaignAnalysis, CellsRatiosWelchAndBaselineZero) {
  CampaignConfig config;
  config.algorithms = {"x"};
  config.heuristics = {Heuristic::kAmu, Heuristic::kArand, Heuristic::kRmu};
  config.sizes = {10};
  config.trials = 3;
  CampaignResults results;
  results.runs = {
      run(Heuristic::kAmu, 0, 0.3, 0.2, 0.001), run(Heuristic::kAmu, 1, 0.5, 0.2, 0.003),
      run(Heuristic::kAmu, 2, 0.4, 0.2, 0.002), run(Heuristic::kArand, 0, 0.1, 0, 0.004),
      run(Heuristic::kArand, 1, 0.2, 0, 0.004), run(Heuristic::kArand, 2, 0.15, 0, 0.004),
      run(Heuristic::kRmu, 0, 0.7, 0.1, 0.001)};
  NoiseResult noise;
  noise.algorithm = "x";
  noise.oracle = {0.02, 0.04, 0.06, 0.08};
  results.noise = {noise, noise};
  const auto s = analyse_campaign(config, results);

  const auto* amu = find_cell(s, "x", Heuristic::kAmu, 10, Oracle::kTopOut);
  ASSERT_NE(amu, nullptr);
  EXPECT_EQ(amu->trials, 3u);
  EXPECT_NEAR(amu->mean, 0.4, 1e-12);
  EXPECT_NEAR(amu->sd, 0.1, 1e-12);
  ASSERT_TRUE(amu->baseline.has_value());
  EXPECT_EQ(*amu->baseline, Heuristic::kArand);
  EXPECT_NEAR(amu->ratio, 0.4 / 0.15, 1e-12);
  // The rank-sum test: every AMU trial above every ARAND trial, exact p = 2 / C(6, 3)
  // (scipy.stats.mannwhitneyu(..., method="exact")); Welch's p, kept for comparison, is
  // scipy.stats.ttest_ind([.3,.5,.4], [.1,.2,.15], equal_var=False).pvalue.
  EXPECT_NEAR(amu->p, 0.1, 1e-12);
  EXPECT_TRUE(amu->p_exact);
  EXPECT_DOUBLE_EQ(amu->superiority, 1);
  EXPECT_NEAR(amu->difference, 0.25, 1e-12);
  EXPECT_NEAR(amu->p_welch, 0.031562231625678464, 1e-9);
  EXPECT_FALSE(amu->baseline_zero);
  EXPECT_DOUBLE_EQ(amu->mean_set_size, 10);

  // ARAND's Jaccard is 0 in every trial: AMU's Jaccard cell is flagged, without a ratio.
  const auto* amu_j = find_cell(s, "x", Heuristic::kAmu, 10, Oracle::kJaccard);
  ASSERT_NE(amu_j, nullptr);
  EXPECT_TRUE(amu_j->baseline_zero);
  EXPECT_TRUE(std::isnan(amu_j->ratio));

  // RMU's baseline RRAND is not in the campaign: no baseline, no ratio; one trial: sd NaN.
  const auto* rmu = find_cell(s, "x", Heuristic::kRmu, 10, Oracle::kTopOut);
  ASSERT_NE(rmu, nullptr);
  EXPECT_FALSE(rmu->baseline.has_value());
  EXPECT_TRUE(std::isnan(rmu->ratio));
  EXPECT_TRUE(std::isnan(rmu->sd));

  ASSERT_EQ(s.noise_floor.size(), 1u);
  EXPECT_EQ(s.noise_floor[0].trials, 2u);
  EXPECT_DOUBLE_EQ(s.noise_floor[0].mean[0], 0.02);

  ASSERT_EQ(s.timing.size(), 3u);
  EXPECT_EQ(s.timing[0].heuristic, Heuristic::kAmu);
  EXPECT_EQ(s.timing[0].runs, 3u);
  EXPECT_NEAR(s.timing[0].mean_seconds, 0.002, 1e-15);
  EXPECT_DOUBLE_EQ(s.timing[0].max_seconds, 0.003);
}

RunResult top_out_run(Heuristic h, std::size_t size, std::size_t trial, double top_out) {
  RunResult r = run(h, trial, top_out, 0, 0.001);
  r.key.size = size;
  return r;
}

// Holm and Benjamini-Hochberg over the targeted Top Out cells (random baselines are not tests),
// quartiles and the t-interval of each cell, and the power check.
TEST(CampaignAnalysis, AdjustedPQuartilesIntervalAndPower) {
  CampaignConfig config;
  config.algorithms = {"x"};
  config.heuristics = {Heuristic::kAmu, Heuristic::kAmr, Heuristic::kArand};
  config.sizes = {10};
  CampaignResults results;
  const double amu[] = {0.30, 0.50, 0.40, 0.45, 0.35, 0.42};  // far above ARAND
  const double amr[] = {0.12, 0.18, 0.10, 0.20, 0.14, 0.11};  // near it
  const double arand[] = {0.10, 0.20, 0.15, 0.12, 0.13, 0.16};
  for (std::size_t t = 0; t < 6; ++t) {
    results.runs.push_back(top_out_run(Heuristic::kAmu, 10, t, amu[t]));
    results.runs.push_back(top_out_run(Heuristic::kAmr, 10, t, amr[t]));
    results.runs.push_back(top_out_run(Heuristic::kArand, 10, t, arand[t]));
  }
  const auto s = analyse_campaign(config, results);
  const auto* a = find_cell(s, "x", Heuristic::kAmu, 10, Oracle::kTopOut);
  const auto* m = find_cell(s, "x", Heuristic::kAmr, 10, Oracle::kTopOut);
  const auto* r = find_cell(s, "x", Heuristic::kArand, 10, Oracle::kTopOut);
  ASSERT_TRUE(a && m && r);
  // A family of two tests: Holm multiplies the smaller p by 2 and the larger by 1 (never below
  // the smaller's adjusted p); BH multiplies the larger by 2/2 and the smaller by 2/1 (never
  // above the larger's adjusted p).
  ASSERT_LT(a->p, m->p);
  EXPECT_NEAR(a->p_holm, std::min(1.0, 2 * a->p), 1e-15);
  EXPECT_NEAR(m->p_holm, std::max(a->p_holm, m->p), 1e-15);
  EXPECT_NEAR(a->p_bh, std::min(2 * a->p, m->p), 1e-15);
  EXPECT_NEAR(m->p_bh, m->p, 1e-15);
  EXPECT_TRUE(std::isnan(r->p_holm));  // the baseline is no test
  // scipy.stats.mannwhitneyu(amu, arand, method="exact"): every AMU trial above every ARAND
  // trial, p = 2 / C(12, 6). AMR ties ARAND at 0.10, 0.12 and 0.20: the permutation
  // distribution of the mid-rank sum gives 0.8485 (scipy.stats.permutation_test on the rank sum,
  // permutation_type="independent", n_resamples=inf), where mannwhitneyu's exact method, which
  // ignores ties, gives 0.937.
  EXPECT_NEAR(a->p, 2.0 / 924, 1e-15);
  EXPECT_NEAR(m->p, 0.8484848484848485, 1e-12);
  // numpy.quantile(amu, [.25,.75]) = [0.3625, 0.4425]
  EXPECT_NEAR(a->q1, 0.3625, 1e-12);
  EXPECT_NEAR(a->q3, 0.4425, 1e-12);
  // mean ± t(0.975, 5) · sd / √6, t = 2.5705818366147395 (scipy.stats.t.ppf)
  EXPECT_NEAR(a->ci_high - a->mean, 2.5705818366147395 * a->sd / std::sqrt(6.0), 1e-7);
  EXPECT_NEAR(a->mean - a->ci_low, a->ci_high - a->mean, 1e-12);
  EXPECT_TRUE(survives_correction(*a));
  EXPECT_FALSE(survives_correction(*m));

  // AMR's minimum detectable difference: (z(1 - 0.05 / 2 / 2) + z(0.8)) · √(sd²/6 + sd_b²/6)
  // = 3.083023961177861 · ... = 0.06711 (scipy.stats.norm.ppf): more than the default 0.05.
  EXPECT_NEAR(m->mde, 0.06711431517962012, 1e-9);
  EXPECT_TRUE(std::isnan(r->mde));  // the baseline is no test
  const PowerCheck power = oracle_power(s, Oracle::kTopOut);
  EXPECT_EQ(power.targeted, 2u);
  EXPECT_EQ(power.raw, 1u);
  EXPECT_EQ(power.holm, 1u);
  EXPECT_EQ(power.min_trials, 6u);
  EXPECT_EQ(power.underpowered, 1u);
  EXPECT_EQ(power.undetectable, 0u);
  EXPECT_TRUE(power.low);
  const std::string warning = low_power_warning(power);
  EXPECT_NE(warning.find("Low power: of 2 targeted Top Out cells, 1 without a finding could not "
                         "have detected a difference of 0.05"),
            std::string::npos)
      << warning;
  EXPECT_NE(warning.find("the largest finite minimum detectable difference is 0.0671"),
            std::string::npos)
      << warning;
  EXPECT_NE(warning.find("1 of 2 targeted cells with a test reach p < 0.05"), std::string::npos)
      << warning;
  // An effect of 0.1 is within reach: no warning.
  EXPECT_FALSE(oracle_power(s, Oracle::kTopOut, 0.1).low);

  // With 4 trials a cell against a baseline of 4 cannot reach Holm's level 0.025 at all: the
  // exact test's smallest p is 2 / C(8, 4) = 0.029.
  CampaignResults four;
  for (const auto& run : results.runs) {
    if (run.key.trial < 4) four.runs.push_back(run);
  }
  const auto f = analyse_campaign(config, four);
  EXPECT_TRUE(std::isinf(find_cell(f, "x", Heuristic::kAmu, 10, Oracle::kTopOut)->mde));
  const PowerCheck weak = oracle_power(f, Oracle::kTopOut);
  EXPECT_EQ(weak.holm, 0u);
  EXPECT_EQ(weak.undetectable, 2u);
  EXPECT_NE(low_power_warning(weak).find("2 of them hold too few trials"), std::string::npos)
      << low_power_warning(weak);
}

// Exact zeros on both sides in every trial: nothing moved, and the design could have seen a
// difference of 0.05 (no variance): no low-power warning, whatever survives.
TEST(CampaignAnalysis, NoWarningWhenNothingMovedOnEitherSide) {
  CampaignConfig config;
  config.algorithms = {"x"};
  config.heuristics = {Heuristic::kAmu, Heuristic::kAmr, Heuristic::kArand};
  config.sizes = {10};
  CampaignResults none;
  for (std::size_t t = 0; t < 10; ++t) {
    none.runs.push_back(top_out_run(Heuristic::kAmu, 10, t, 0.0));
    none.runs.push_back(top_out_run(Heuristic::kAmr, 10, t, t == 4 ? 0.01 : 0.0));
    none.runs.push_back(top_out_run(Heuristic::kArand, 10, t, 0.0));
  }
  const auto s = analyse_campaign(config, none);
  const auto power = oracle_power(s, Oracle::kTopOut);
  EXPECT_EQ(power.holm, 0u);
  EXPECT_EQ(find_cell(s, "x", Heuristic::kAmu, 10, Oracle::kTopOut)->mde, 0.0);
  EXPECT_FALSE(power.low) << low_power_warning(power);
  EXPECT_EQ(low_power_warning(power), "");
  // Asked for an effect smaller than AMR's minimum detectable difference, it warns.
  const double amr_mde = find_cell(s, "x", Heuristic::kAmr, 10, Oracle::kTopOut)->mde;
  EXPECT_GT(amr_mde, 0.0);
  EXPECT_TRUE(oracle_power(s, Oracle::kTopOut, amr_mde / 2).low);
}

// A zero-inflated effect as campaigns show them: AMR moves a few users (0.1 %) in every trial and
// most users in three, where random additions move no one in any trial. Welch's test sees the
// three large trials as variance and misses it (p 0.081 before any correction); the rank-sum
// test sees every AMR trial above every ARAND trial and finds it after Holm's correction. AMU
// moves many users in 8 of 20 trials (both tests find it). A reseed moves 20 % of users: more
// than AMR's mean, less than AMU's.
TEST(CampaignAnalysis, RankSumFindsAZeroInflatedEffectWelchMisses) {
  CampaignConfig config;
  config.algorithms = {"x"};
  config.heuristics = {Heuristic::kAmu, Heuristic::kAli, Heuristic::kAmr, Heuristic::kArand};
  config.sizes = {10};
  CampaignResults results;
  const double amu[] = {0.3, 0.5, 0.99, 0.6, 0.45, 0.8, 0.29, 0.7};
  for (std::size_t t = 0; t < 20; ++t) {
    results.runs.push_back(top_out_run(Heuristic::kAmr, 10, t, t % 7 == 3 ? 0.9 : 0.001));
    results.runs.push_back(top_out_run(Heuristic::kAmu, 10, t, t < 8 ? amu[t] : 0.0));
    results.runs.push_back(top_out_run(Heuristic::kAli, 10, t, 0.0));
    results.runs.push_back(top_out_run(Heuristic::kArand, 10, t, 0.0));
  }
  NoiseResult noise;
  noise.algorithm = "x";
  noise.oracle = {0.2, 0.3, 0.3, 0.3};
  results.noise = {noise, noise};
  const auto s = analyse_campaign(config, results);
  const auto* amr = find_cell(s, "x", Heuristic::kAmr, 10, Oracle::kTopOut);
  const auto* amu_cell = find_cell(s, "x", Heuristic::kAmu, 10, Oracle::kTopOut);
  const auto* ali = find_cell(s, "x", Heuristic::kAli, 10, Oracle::kTopOut);
  ASSERT_TRUE(amr && amu_cell && ali);
  EXPECT_TRUE(std::isnan(ali->p));  // every trial of both is 0: no test, not in the family
  // Welch: scipy.stats.ttest_ind(amr, arand, equal_var=False).pvalue = 0.0807.
  EXPECT_NEAR(amr->p_welch, 0.08073199293860338, 1e-9);
  EXPECT_GE(amr->p_welch_holm, kAlpha);
  // Rank sum: exact, 2 / C(40, 20); Holm over the family of two.
  EXPECT_TRUE(amr->p_exact);
  EXPECT_NEAR(amr->p, 2.0 / 137846528820.0, 1e-20);
  EXPECT_NEAR(amr->p_holm, 2 * amr->p, 1e-20);
  EXPECT_DOUBLE_EQ(amr->superiority, 1.0);
  EXPECT_TRUE(survives_correction(*amr));
  EXPECT_NEAR(amr->difference, amr->mean, 1e-15);
  EXPECT_GT(amr->difference_low, 0.0);
  EXPECT_GE(amr->difference_high, amr->difference);
  // AMU: both tests find it (Welch p 0.0050, rank-sum exact).
  EXPECT_TRUE(survives_correction(*amu_cell));
  EXPECT_LT(amu_cell->p_welch_holm, kAlpha);
  // The noise floor: AMR moved less than a reseed does, AMU more.
  EXPECT_DOUBLE_EQ(amr->noise_floor, 0.2);
  EXPECT_TRUE(amr->within_noise);
  EXPECT_FALSE(amu_cell->within_noise);
  const auto* amr_jaccard = find_cell(s, "x", Heuristic::kAmr, 10, Oracle::kJaccard);
  ASSERT_NE(amr_jaccard, nullptr);
  EXPECT_DOUBLE_EQ(amr_jaccard->noise_floor, 0.3);
  // The power check counts the rank-sum findings, per oracle.
  const PowerCheck power = oracle_power(s, Oracle::kTopOut);
  EXPECT_EQ(power.targeted, 2u);
  EXPECT_EQ(power.holm, 2u);
  EXPECT_EQ(oracle_power(s, Oracle::kJaccard).targeted, 0u);  // every Jaccard value is 0
}

// The same campaign gives the same intervals (seeded bootstrap), whatever else it holds.
TEST(CampaignAnalysis, DifferenceIntervalsAreReproducible) {
  CampaignConfig config;
  config.algorithms = {"x"};
  config.heuristics = {Heuristic::kAmu, Heuristic::kArand};
  config.sizes = {10};
  CampaignResults results;
  for (std::size_t t = 0; t < 12; ++t) {
    const auto x = static_cast<double>(t);
    results.runs.push_back(top_out_run(Heuristic::kAmu, 10, t, 0.013 * (t % 5) + 0.0007 * x));
    results.runs.push_back(top_out_run(Heuristic::kArand, 10, t, 0.011 * (t % 3) + 0.0003 * x));
  }
  const auto a = analyse_campaign(config, results);
  const auto* c = find_cell(a, "x", Heuristic::kAmu, 10, Oracle::kTopOut);
  ASSERT_NE(c, nullptr);
  EXPECT_LT(c->difference_low, c->difference);
  EXPECT_GT(c->difference_high, c->difference);
  config.heuristics.push_back(Heuristic::kRmu);  // another cell: this one's interval stays
  results.runs.push_back(top_out_run(Heuristic::kRmu, 10, 0, 0.5));
  const auto b = analyse_campaign(config, results);
  const auto* d = find_cell(b, "x", Heuristic::kAmu, 10, Oracle::kTopOut);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(c->difference_low, d->difference_low);
  EXPECT_EQ(c->difference_high, d->difference_high);
  config.seed = 1;  // another campaign seed: another bootstrap stream
  const auto e = analyse_campaign(config, results);
  EXPECT_NE(find_cell(e, "x", Heuristic::kAmu, 10, Oracle::kTopOut)->difference_low,
            c->difference_low);
}

}  // namespace
}  // namespace assay::stability
