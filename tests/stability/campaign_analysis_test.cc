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
  // scipy.stats.ttest_ind([.3,.5,.4], [.1,.2,.15], equal_var=False).pvalue
  EXPECT_NEAR(amu->p, 0.031562231625678464, 1e-9);
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
  const double amu[] = {0.30, 0.50, 0.40, 0.45};  // far above ARAND
  const double amr[] = {0.12, 0.18, 0.10, 0.20};  // near it
  const double arand[] = {0.10, 0.20, 0.15, 0.12};
  for (std::size_t t = 0; t < 4; ++t) {
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
  // numpy.quantile([.3,.5,.4,.45], [.25,.75]) = [0.375, 0.4625]
  EXPECT_NEAR(a->q1, 0.375, 1e-12);
  EXPECT_NEAR(a->q3, 0.4625, 1e-12);
  // mean ± t(0.975, 3) · sd / 2, t = 3.182446305284263 (scipy.stats.t.ppf)
  EXPECT_NEAR(a->ci_high - a->mean, 3.182446305284263 * a->sd / 2, 1e-7);
  EXPECT_NEAR(a->mean - a->ci_low, a->ci_high - a->mean, 1e-12);
  EXPECT_TRUE(survives_correction(*a));
  EXPECT_FALSE(survives_correction(*m));

  const PowerCheck power = top_out_power(s);
  EXPECT_EQ(power.targeted, 2u);
  EXPECT_EQ(power.raw, 1u);
  EXPECT_EQ(power.holm, 1u);
  EXPECT_EQ(power.min_trials, 4u);
  EXPECT_TRUE(power.low);  // 4 trials < kLowPowerTrials
  const std::string warning = low_power_warning(power);
  EXPECT_NE(warning.find("1 of 2 targeted Top Out cells reach p < 0.05"), std::string::npos)
      << warning;
  EXPECT_NE(warning.find("with 4 trials"), std::string::npos) << warning;
}

// Enough trials and a surviving cell: no warning. Enough trials and nothing surviving: a
// warning that says so.
TEST(CampaignAnalysis, NoWarningWithEnoughTrialsAndAFinding) {
  CampaignConfig config;
  config.algorithms = {"x"};
  config.heuristics = {Heuristic::kAmu, Heuristic::kArand};
  config.sizes = {10};
  CampaignResults strong, none;
  for (std::size_t t = 0; t < kLowPowerTrials; ++t) {
    const double noise = 0.01 * static_cast<double>(t % 3);
    strong.runs.push_back(top_out_run(Heuristic::kAmu, 10, t, 0.4 + noise));
    strong.runs.push_back(top_out_run(Heuristic::kArand, 10, t, 0.1 + noise));
    none.runs.push_back(top_out_run(Heuristic::kAmu, 10, t, 0.1 + noise));
    none.runs.push_back(top_out_run(Heuristic::kArand, 10, t, 0.1 + 0.01 * (t % 2)));
  }
  const auto s = top_out_power(analyse_campaign(config, strong));
  EXPECT_FALSE(s.low);
  EXPECT_EQ(low_power_warning(s), "");
  const auto n = top_out_power(analyse_campaign(config, none));
  EXPECT_TRUE(n.low);
  EXPECT_NE(low_power_warning(n).find("no heuristic is shown to move more users"),
            std::string::npos)
      << low_power_warning(n);
}

}  // namespace
}  // namespace assay::stability
