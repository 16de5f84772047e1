#include "stability/campaign_analysis.h"

#include <gtest/gtest.h>

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
  results.runs = {run(Heuristic::kAmu, 0, 0.3, 0.2, 0.001), run(Heuristic::kAmu, 1, 0.5, 0.2, 0.003),
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

}  // namespace
}  // namespace assay::stability
