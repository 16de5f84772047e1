#include "stability/campaign_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "campaign_fixture.h"
#include "support/temp_dir.h"

namespace assay::stability {
namespace {

TEST(CampaignReport, WritesEveryOutput) {
  const auto data = testing::small_synthetic();
  const auto config = testing::small_config();
  ::assay::testing::TempDir dir;
  CampaignStore store(dir.file("s.sqlite"));
  const auto results = run_campaign(data, config, store);
  const auto summary = analyse_campaign(config, results);
  ReportOptions options;
  options.delta = 0.05;
  const auto sets = sets_exceeding(data, config, results, options.delta, options.delta_oracle);
  const std::string out = dir.file("out");
  write_campaign_report(out, data, config, summary, sets, options);

  for (const char* name : {"summary.json", "cells.csv", "figure2.svg", "table3.md", "table3.csv",
                           "table4.md", "table4.csv", "report.html"}) {
    EXPECT_TRUE(std::filesystem::exists(out + "/" + name)) << name;
  }
  const auto j = nlohmann::json::parse(::assay::testing::read_file(out + "/summary.json"));
  // 2 algorithms × 5 heuristics × 2 sizes × 4 oracles.
  ASSERT_EQ(j["cells"].size(), 80u);
  for (const char* key : {"algorithm", "heuristic", "size", "trials", "oracle", "mean", "sd",
                          "baseline", "ratio", "p"}) {
    EXPECT_TRUE(j["cells"][0].contains(key)) << key;
  }
  EXPECT_EQ(j["cells"][0]["algorithm"], "user-user");
  EXPECT_EQ(j["cells"][0]["heuristic"], "AMU");
  EXPECT_EQ(j["cells"][0]["baseline"], "ARAND");
  EXPECT_EQ(j["noise_floor"].size(), 2u);
  EXPECT_EQ(j["timing"].size(), 10u);
  EXPECT_EQ(j["exceeding_delta"]["files"].size(), sets.size());
  for (const auto& f : j["exceeding_delta"]["files"]) {
    const auto set = read_modification_set(out + "/" + f.get<std::string>(), data);
    EXPECT_GT(set.oracle[0], 0.05);
  }
  const std::string svg = ::assay::testing::read_file(out + "/figure2.svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("item-item CMU"), std::string::npos);
  const std::string html = ::assay::testing::read_file(out + "/report.html");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("Table 4"), std::string::npos);
  const std::string t4 = ::assay::testing::read_file(out + "/table4.md");
  EXPECT_NE(t4.find("| user-user | 8 |"), std::string::npos) << t4;
  EXPECT_EQ(t4.find("| user-user | 1 |"), std::string::npos) << t4;
}

// An algorithm spec with key=value options holds commas: its cells.csv field is quoted.
TEST(CampaignReport, CellsCsvQuotesSpecsWithCommas) {
  CampaignSummary summary;
  summary.cells.emplace_back();
  summary.cells.back().algorithm = "funk-svd:epochs=5,damping=0";
  const std::string csv = cells_csv(summary);
  const std::string row = csv.substr(csv.find('\n') + 1);
  EXPECT_EQ(row.rfind("\"funk-svd:epochs=5,damping=0\",", 0), 0u) << row;
}

RunResult top_out_run(const std::string& algorithm, Heuristic h, std::size_t trial,
                      double top_out) {
  RunResult r;
  r.key = {algorithm, h, 10, trial};
  r.n_modifications = 10;
  r.oracle = {top_out, 0.0, 0.0, 0.0};
  return r;
}

// Campaign results made to order on 60 users. With 10 trials (the rank-sum test's exact p, by
// scipy.stats.permutation_test on the rank sum): on "a", AMR above every ARAND trial (p 1.1e-5,
// a finding), AMU a little above it (p 0.0456: significant alone, not after Holm's correction
// for the 3 comparisons); on "b", AMR moves a few users in two trials where ARAND moved none in
// any (p 0.47), and AMU and ARAND move no one (no test). With 2 trials nothing reaches p < 0.05.
struct MadeCampaign {
  CampaignConfig config;
  CampaignSummary summary;
};
MadeCampaign made_campaign(std::size_t trials) {
  MadeCampaign m;
  m.config.algorithms = {"a", "b"};
  m.config.heuristics = {Heuristic::kAmu, Heuristic::kAmr, Heuristic::kArand};
  m.config.sizes = {10};
  m.config.trials = trials;
  CampaignResults results;
  for (std::size_t t = 0; t < trials; ++t) {
    const double wobble = 0.01 * static_cast<double>(t % 3);
    results.runs.push_back(top_out_run("a", Heuristic::kAmr, t, 0.3 + 0.4 * (t % 2)));
    results.runs.push_back(
        top_out_run("a", Heuristic::kAmu, t, 0.109 + wobble + (t < 3 ? 0.02 : 0.0)));
    results.runs.push_back(top_out_run("a", Heuristic::kArand, t, 0.1 + wobble));
    results.runs.push_back(top_out_run("b", Heuristic::kAmr, t, t == 3 || t == 7 ? 0.05 : 0.0));
    results.runs.push_back(top_out_run("b", Heuristic::kAmu, t, 0.0));
    results.runs.push_back(top_out_run("b", Heuristic::kArand, t, 0.0));
  }
  m.summary = analyse_campaign(m.config, results);
  return m;
}

TEST(CampaignReport, HeadlineQuotesOnlyWhatSurvivesTheCorrection) {
  const auto data = testing::small_synthetic();  // 60 users
  const auto m = made_campaign(10);
  const auto* amu = find_cell(m.summary, "a", Heuristic::kAmu, 10, Oracle::kTopOut);
  ASSERT_NE(amu, nullptr);
  EXPECT_NEAR(amu->p, 0.04562774686613696, 1e-12);
  ASSERT_LT(amu->p, 0.05);       // significant alone...
  ASSERT_GE(amu->p_holm, 0.05);  // ...but not after the correction
  const std::string h = campaign_headline_html(data, m.config, m.summary);
  EXPECT_NE(h.find("Largest effect on Top Out that survives the correction for 3 comparisons"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("chosen by <b>AMR</b>"), std::string::npos) << h;
  EXPECT_NE(h.find("95 % CI"), std::string::npos) << h;
  EXPECT_NE(h.find("rank-sum p = "), std::string::npos) << h;
  EXPECT_NE(h.find("probability 1"), std::string::npos) << h;
  EXPECT_NE(h.find("10 trials"), std::string::npos) << h;
  EXPECT_EQ(h.find("AMU"), std::string::npos) << h;  // not a finding: not quoted
  // b's AMR beats a baseline of 0 but its p does not survive: b is said to have none.
  EXPECT_NE(h.find("on b, no heuristic's effect survives the correction"), std::string::npos) << h;

  // findings.md lists the one finding; top_out.md marks it.
  ::assay::testing::TempDir dir;
  ReportOptions options;
  write_campaign_report(dir.file("out"), data, m.config, m.summary, {}, options);
  const std::string findings = ::assay::testing::read_file(dir.file("out/findings.md"));
  EXPECT_NE(findings.find("| a | AMR | 10 | 10 |"), std::string::npos) << findings;
  EXPECT_EQ(findings.find("| a | AMU |"), std::string::npos) << findings;
  EXPECT_EQ(findings.find("Low power"), std::string::npos) << findings;
  const std::string top_out = ::assay::testing::read_file(dir.file("out/top_out.md"));
  EXPECT_NE(top_out.find("| yes |"), std::string::npos) << top_out;
  const auto j = nlohmann::json::parse(::assay::testing::read_file(dir.file("out/summary.json")));
  const auto& top = j["significance"]["oracles"][0];
  EXPECT_EQ(top["oracle"], "top-out");
  EXPECT_EQ(top["below_alpha_holm"], 1);
  EXPECT_EQ(top["findings"], 1);
  EXPECT_FALSE(top["low_power"].get<bool>());
  // Every oracle has its table.
  for (const char* f : {"top_out.md", "jaccard.md", "aod.md", "rbo.md"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.file(std::string("out/") + f))) << f;
  }
  EXPECT_TRUE(j["cells"][0].contains("p_holm"));
  EXPECT_TRUE(j["cells"][0].contains("p_bh"));
}

// The headline speaks of the oracle the user chose, and says when a reseed alone moves at least
// as much as every modification set: here a reseed moves 40 % of users' top item, and no
// heuristic moved more than 15 % on average, while AMR moves the lists (Jaccard) far more than
// random additions do.
TEST(CampaignReport, HeadlineOracleAndTheNoiseFloorAsAFinding) {
  const auto data = testing::small_synthetic();
  CampaignConfig config;
  config.algorithms = {"a"};
  config.heuristics = {Heuristic::kAmr, Heuristic::kArand};
  config.sizes = {10};
  CampaignResults results;
  for (std::size_t t = 0; t < 10; ++t) {
    const double w = 0.01 * static_cast<double>(t % 4);
    RunResult amr = top_out_run("a", Heuristic::kAmr, t, 0.1 + w);
    amr.oracle[1] = 0.5 + w;
    RunResult arand = top_out_run("a", Heuristic::kArand, t, 0.1 + w);
    arand.oracle[1] = 0.05 + w;
    results.runs.push_back(amr);
    results.runs.push_back(arand);
  }
  NoiseResult noise;
  noise.algorithm = "a";
  noise.oracle = {0.4, 0.2, 0.2, 0.2};
  results.noise = {noise, noise, noise};
  const auto summary = analyse_campaign(config, results);
  const std::string top = campaign_headline_html(data, config, summary, Oracle::kTopOut);
  EXPECT_NE(top.find("No heuristic moved more users' top item"), std::string::npos) << top;
  EXPECT_NE(top.find("On a, retraining on the unchanged data with another seed pushed the top "
                     "recommendation of 24 of 60 users (40.0 %) (mean of 3 retrainings), at "
                     "least as much as any set of modifications"),
            std::string::npos)
      << top;
  EXPECT_NE(top.find("the model's own, not the data's"), std::string::npos) << top;
  const std::string jac = campaign_headline_html(data, config, summary, Oracle::kJaccard);
  EXPECT_NE(jac.find("Largest effect on Jaccard that survives the correction for 1 comparison:"),
            std::string::npos)
      << jac;
  EXPECT_NE(jac.find("by a mean Jaccard distance of 0.513"), std::string::npos) << jac;
  EXPECT_EQ(jac.find("the model's own"), std::string::npos) << jac;  // 0.2 < AMR's 0.513

  // The findings table lists the Jaccard finding whatever the headline's oracle; the
  // headline oracle's name reaches summary.json.
  ::assay::testing::TempDir dir;
  ReportOptions options;
  options.headline_oracle = Oracle::kJaccard;
  write_campaign_report(dir.file("out"), data, config, summary, {}, options);
  const std::string findings = ::assay::testing::read_file(dir.file("out/findings.md"));
  EXPECT_NE(findings.find("| Jaccard | a | AMR | 10 | 10 |"), std::string::npos) << findings;
  EXPECT_EQ(findings.find("| Top Out | a |"), std::string::npos) << findings;
  const auto j = nlohmann::json::parse(::assay::testing::read_file(dir.file("out/summary.json")));
  EXPECT_EQ(j["significance"]["headline_oracle"], "jaccard");
  const std::string html = ::assay::testing::read_file(dir.file("out/report.html"));
  EXPECT_NE(html.find("Largest effect on Jaccard"), std::string::npos);
  EXPECT_NE(html.find("<h2>RBO per cell</h2>"), std::string::npos);
}

TEST(CampaignReport, FewTrialsHeadlineSaysNothingHoldsAndWarns) {
  const auto data = testing::small_synthetic();
  const auto m = made_campaign(2);
  const std::string h = campaign_headline_html(data, m.config, m.summary);
  EXPECT_NE(h.find("No heuristic moved more users' top item"), std::string::npos) << h;
  EXPECT_NE(h.find("are not findings"), std::string::npos) << h;
  ::assay::testing::TempDir dir;
  write_campaign_report(dir.file("out"), data, m.config, m.summary, {}, ReportOptions{});
  const std::string html = ::assay::testing::read_file(dir.file("out/report.html"));
  EXPECT_NE(html.find("<p class=\"warning\">Low power: "), std::string::npos);
  EXPECT_NE(html.find("hold too few trials for the rank-sum test"), std::string::npos);
}

// Figure 2: every cell is a difference of means with its bootstrap interval on a linear axis,
// so a cell whose baseline moved no one is a bar like any other (no ratio needed); bars that
// are not findings are faint, and findings carry a star.
TEST(CampaignReport, FigureTwoShowsDifferencesWithIntervalsAndFaintNonFindings) {
  const auto m = made_campaign(10);
  const std::string svg = figure2_svg(m.config, m.summary);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto p = svg.find(what); p != std::string::npos; p = svg.find(what, p + 1)) ++n;
    return n;
  };
  // Bars: a's AMU (faint), a's AMR (solid), b's AMR (faint; its baseline moved no one) and b's
  // AMU (0 - 0: a bar of height 0, faint).
  EXPECT_EQ(count("<rect x=") - 1 /* legend swatch */ - 1 /* faint key */, 4u) << svg;
  EXPECT_EQ(count("fill-opacity=\"0.3\"><title>"), 3u) << svg;
  EXPECT_NE(svg.find("n = 10 / b AMR: 0.01 (mean Top Out 0.01 against 0,"), std::string::npos)
      << svg;
  EXPECT_EQ(count("fill=\"white\" stroke="), 0u) << svg;  // no triangles
  EXPECT_EQ(count("stroke=\"#222\""), 4u + 1u) << svg;    // four intervals and the key's
  EXPECT_NE(svg.find(">not a finding</text>"), std::string::npos) << svg;
  // The finding (a's AMR) has a star over it, however short its bar; the key explains it.
  EXPECT_EQ(count(">★<title>"), 1u) << svg;
  EXPECT_NE(svg.find(">★<title>n = 10 / a AMR ("), std::string::npos) << svg;
  EXPECT_NE(svg.find(">a finding</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">95 % bootstrap CI</text>"), std::string::npos) << svg;
}

}  // namespace
}  // namespace assay::stability
