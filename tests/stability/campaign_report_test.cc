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

// Campaign results made to order on 60 users. With 10 trials (Welch p by scipy): on "a", AMR
// far above ARAND (p 0.00024, a finding), AMU a little above it (p 0.034: significant alone,
// not after Holm's correction for the 3 comparisons); on "b", AMR moves a few users in two
// trials where ARAND moved none in any (p 0.17), and AMU and ARAND move no one (no test).
// With 2 trials nothing reaches p < 0.05.
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
    results.runs.push_back(top_out_run("a", Heuristic::kAmu, t, 0.109 + wobble));
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
  ASSERT_LT(amu->p, 0.05);       // significant alone...
  ASSERT_GE(amu->p_holm, 0.05);  // ...but not after the correction
  const std::string h = campaign_headline_html(data, m.config, m.summary);
  EXPECT_NE(h.find("Largest effect that survives the correction for 3 comparisons"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("chosen by <b>AMR</b>"), std::string::npos) << h;
  EXPECT_NE(h.find("95 % CI"), std::string::npos) << h;
  EXPECT_NE(h.find("Welch p = "), std::string::npos) << h;
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
  EXPECT_EQ(j["significance"]["below_alpha_holm"], 1);
  EXPECT_FALSE(j["significance"]["low_power"].get<bool>());
  EXPECT_TRUE(j["cells"][0].contains("p_holm"));
  EXPECT_TRUE(j["cells"][0].contains("p_bh"));
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
  EXPECT_NE(html.find("with 2 trials in a cell"), std::string::npos);
}

// Figure 2: a cell whose baseline moved no one is a marker on the 1x line, never a bar; a bar
// that does not survive the correction is faint; every drawn bar has its quartile whisker.
TEST(CampaignReport, FigureTwoShowsSpreadSignificanceAndNoBarOverABaselineOfZero) {
  const auto m = made_campaign(10);
  const std::string svg = figure2_svg(m.config, m.summary);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto p = svg.find(what); p != std::string::npos; p = svg.find(what, p + 1)) ++n;
    return n;
  };
  // Bars: a's AMU (faint) and AMR (solid); b's AMU is 0 over 0 (none), b's AMR has no ratio.
  EXPECT_EQ(count("<rect x=") - 1 /* legend swatch */ - 1 /* faint key */, 2u) << svg;
  EXPECT_EQ(count("fill-opacity=\"0.3\"><title>"), 1u) << svg;  // a's AMU
  EXPECT_NE(svg.find("n = 10 / b AMR (random moved none; mean Top Out 0.01,"), std::string::npos)
      << svg;
  EXPECT_EQ(count("fill=\"white\" stroke="), 2u) << svg;  // b's AMR marker and the key's
  EXPECT_EQ(count("stroke=\"#222\""), 2u + 1u) << svg;    // two whiskers and the key's
  EXPECT_NE(svg.find(">Holm p &gt;= 0.05</text>"), std::string::npos) << svg;
}

}  // namespace
}  // namespace assay::stability
