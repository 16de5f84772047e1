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

}  // namespace
}  // namespace assay::stability
