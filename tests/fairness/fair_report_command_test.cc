#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "biased_lr.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kTexts =
    "the actor was wonderful\n"
    "a great actor and a great film\n"
    "the film was wonderful\n"
    "the actors were wonderful and the director was great\n";

// fair test and fair mitigate into one directory per model (the same biased LR twice, under
// two names), then the page: headline, tables, marked words, both figures.
class FairReportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    lr_ = testing::train_biased_lr(dir_);
    ASSERT_FALSE(HasFailure());
    in_ = dir_.write("in.txt", kTexts);
    for (const char* name : {"lr", "lr-b"}) {
      const std::string common = " --model lr:" + lr_ + " --input " + in_ + " --cache " +
                                 dir_.file("cache.sqlite") + " --quiet --out " + dir_.file(name);
      auto r = run_assay(dir_, "fair test" + common);
      ASSERT_EQ(r.exit_code, 1) << r.err;
      if (std::string(name) == "lr") {
        r = run_assay(dir_, "fair mitigate --epsilon 0.1,1,10" + common);
        ASSERT_EQ(r.exit_code, 0) << r.err;
      }
    }
  }
  TempDir dir_;
  std::string lr_, in_;
};

TEST_F(FairReportCommand, PageFromTestAndMitigation) {
  const auto summary = nlohmann::json::parse(read_file(dir_.file("lr/summary.json")));
  EXPECT_EQ(summary["perturbations_per_input"]["0"], 1);  // "the film was wonderful"
  const auto r =
      run_assay(dir_, "fair report --in " + dir_.file("lr") + " --out " + dir_.file("r.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(dir_.file("r.html"));
  EXPECT_THAT(html, HasSubstr("of the texts that mention a person ("));
  EXPECT_THAT(html, HasSubstr("change the label of <b>lr</b> (model <code>lr:sha256:"));
  EXPECT_THAT(html, HasSubstr("</code> on <code>" + in_ +
                              "</code>, attribute gender) when the person's gender changes"));
  EXPECT_THAT(html, HasSubstr("the substitutions that flip labels most are <i>"));
  EXPECT_THAT(html, HasSubstr("With the neutral layer in front of the model, for lr <b>"));
  EXPECT_THAT(html, HasSubstr("the <mark>actress</mark> was wonderful"));
  EXPECT_THAT(html, HasSubstr("the <mark>actor</mark> was wonderful"));
  EXPECT_THAT(html, HasSubstr("<td>actor → actress</td>"));
  EXPECT_THAT(html, HasSubstr("Figure 4: inputs by number of perturbations"));
  EXPECT_THAT(html, HasSubstr("Figure 5: violations remaining after the neutral layer"));
  EXPECT_THAT(html, HasSubstr("<th class=\"num\">ε = 0.1</th>"));
  EXPECT_THAT(html, Not(HasSubstr("class=\"missing\"")));
}

TEST_F(FairReportCommand, SeveralModelsAndMissingParts) {
  auto r = run_assay(dir_, "fair report --in " + dir_.file("lr") + " " + dir_.file("lr-b") +
                               " --out " + dir_.file("two.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string html = read_file(dir_.file("two.html"));
  EXPECT_THAT(html, HasSubstr("Between <b>"));
  EXPECT_THAT(html, HasSubstr("(2 runs: 1 model, 1 attribute)"));
  EXPECT_THAT(html, HasSubstr("<h2>lr-b</h2>"));
  // Without fair mitigate's results the page says what to run.
  r = run_assay(dir_, "fair report --in " + dir_.file("lr-b") + " --out " + dir_.file("b.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  html = read_file(dir_.file("b.html"));
  EXPECT_THAT(html, HasSubstr("No mitigation results given (mitigation.json)"));
  EXPECT_THAT(html, Not(HasSubstr("Figure 5")));
}

// Direction and severity: the biased LR flips texts rewritten as female toward neg, so the
// page says it favours male, by how many flips, with each group's flips and mean score change;
// the severity table counts at 0, 0.1, 0.2 and 0.3; one section per (model, attribute) run;
// ε explained in words.
TEST_F(FairReportCommand, WhoIsFavouredAndHowStrongly) {
  const auto s = nlohmann::json::parse(read_file(dir_.file("lr/summary.json")));
  const auto& female = s["by_group"]["female"];
  const auto& male = s["by_group"]["male"];
  const long net_female =
      female["flips_toward"]["pos"].get<long>() - female["flips_toward"]["neg"].get<long>();
  const long net_male =
      male["flips_toward"]["pos"].get<long>() - male["flips_toward"]["neg"].get<long>();
  ASSERT_GT(net_male, net_female);
  // Religion on the same model: a second run, a second attribute.
  const auto rin = dir_.write("religion.txt",
                              "the muslim doctor was wonderful\nthe christian actor was great\n");
  auto r = run_assay(dir_, "fair test --attribute religion --model lr:" + lr_ + " --input " + rin +
                               " --quiet --out " + dir_.file("religion"));
  ASSERT_LE(r.exit_code, 1) << r.err;
  r = run_assay(dir_, "fair report --in " + dir_.file("lr") + " " + dir_.file("religion") +
                          " --out " + dir_.file("d.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(dir_.file("d.html"));
  EXPECT_THAT(html, HasSubstr("(2 runs: 1 model, 2 attributes)"));
  EXPECT_THAT(html, HasSubstr("<h2>lr</h2>"));
  EXPECT_THAT(html, HasSubstr("<h2>religion</h2>"));
  EXPECT_THAT(html, HasSubstr("attribute religion"));
  // One flip is no finding: the page says no group is favoured beyond chance, and why.
  EXPECT_THAT(html, HasSubstr("The model favours no group beyond chance: no group's flips lean "
                              "toward <i>pos</i> or away from it at the 5 % level (exact sign "
                              "test, Holm's correction across the 2 groups)"));
  EXPECT_THAT(html, Not(HasSubstr("The model favours <b>")));
  EXPECT_EQ(female["direction_test"]["lean"], 0);
  EXPECT_EQ(s["direction_level"], 0.05);
  EXPECT_THAT(
      html,
      HasSubstr("rewritten as male, " + std::to_string(male["flips_toward"]["pos"].get<long>()) +
                " toward <i>pos</i> and " +
                std::to_string(male["flips_toward"]["neg"].get<long>()) + " away from it"));
  EXPECT_THAT(html, HasSubstr("<th class=\"num\">violations toward neg</th>"));
  EXPECT_THAT(html, HasSubstr("<th class=\"num\">mean change of pos&apos;s score</th>"));
  // Per substitution between groups, as summary.json counts them.
  for (const auto& p : s["by_group_pair"]) {
    const std::string from = p["from"].is_null() ? "—" : p["from"].get<std::string>();
    EXPECT_THAT(
        html,
        HasSubstr("<td>" + from + " → " + p["to"].get<std::string>() + "</td><td class=\"num\">" +
                  std::to_string(p["perturbations"].get<long>()) + "</td><td class=\"num\">" +
                  std::to_string(p["violations"].get<long>()) + "</td>"))
        << p.dump();
  }
  for (const char* d : {"≥ 0 (this run)", "≥ 0.1", "≥ 0.2", "≥ 0.3"})
    EXPECT_THAT(html, HasSubstr("<td>" + std::string(d) + "</td>")) << d;
  EXPECT_THAT(html, HasSubstr("<th class=\"num\">toward neg</th>"));
  EXPECT_THAT(html, HasSubstr("<i>ε</i> is how much the neutral layer"));
}

// A summary.json of the first format (no "format", no direction or severity) is still read:
// its section says how to get them; an unknown format is refused.
TEST_F(FairReportCommand, FirstFormatSummaryIsReadAndUnknownFormatRefused) {
  namespace fs = std::filesystem;
  fs::copy(dir_.file("lr-b"), dir_.file("old"));
  auto j = nlohmann::ordered_json::parse(read_file(dir_.file("lr-b/summary.json")));
  for (const char* key :
       {"format", "data", "labels", "min_delta", "violations_at_min_delta", "by_group"})
    j.erase(key);
  dir_.write("old/summary.json", j.dump(2));
  auto r =
      run_assay(dir_, "fair report --in " + dir_.file("old") + " --out " + dir_.file("o.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(dir_.file("o.html"));
  EXPECT_THAT(html, HasSubstr("Direction and severity are not in this summary.json"));
  EXPECT_THAT(html, HasSubstr("<td>actor → actress</td>"));
  j["format"] = "assay-fair-test-summary/9";
  dir_.write("old/summary.json", j.dump(2));
  r = run_assay(dir_, "fair report --in " + dir_.file("old") + " --out " + dir_.file("o2.html"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("old/summary.json: unknown format 'assay-fair-test-summary/9'"));
  EXPECT_FALSE(fs::exists(dir_.file("o2.html")));
}

// Bad input names the file (and line), exits 2 and writes nothing.
TEST_F(FairReportCommand, BadInputIsFileLineExit2AndNoPage) {
  namespace fs = std::filesystem;
  const auto expect_error = [&](const std::string& in, const std::string& message) {
    const auto r = run_assay(dir_, "fair report --in " + in + " --out " + dir_.file("bad.html"));
    EXPECT_EQ(r.exit_code, 2) << in;
    EXPECT_THAT(r.err, HasSubstr(message)) << in;
    EXPECT_FALSE(fs::exists(dir_.file("bad.html"))) << in;
  };
  fs::copy(dir_.file("lr-b"), dir_.file("broken"));
  std::string v = read_file(dir_.file("lr-b/violations.jsonl"));
  dir_.write("broken/violations.jsonl", v + "{\"line\": 3,\n");
  const auto lines = std::count(v.begin(), v.end(), '\n');
  expect_error(dir_.file("broken"), "broken/violations.jsonl:" + std::to_string(lines + 1));
  dir_.write("broken/violations.jsonl", v + "{\"line\": 3}\n");
  expect_error(dir_.file("broken"),
               "violations.jsonl:" + std::to_string(lines + 1) + ": missing 'original'");
  dir_.write("broken/violations.jsonl", v);
  std::string s = read_file(dir_.file("lr-b/summary.json"));
  dir_.write("broken/summary.json", s.substr(0, s.size() / 2));
  expect_error(dir_.file("broken"), "broken/summary.json:");
  auto j = nlohmann::json::parse(s);
  j.erase("mutable");
  dir_.write("broken/summary.json", j.dump(2));
  expect_error(dir_.file("broken"), "summary.json: missing 'mutable'");
  fs::create_directory(dir_.file("empty"));
  expect_error(dir_.file("empty"), "neither summary.json");
  // One good directory and one bad: still nothing written.
  expect_error(dir_.file("lr") + " " + dir_.file("empty"), "neither summary.json");
}

// Eight texts whose rewrite as female flips the biased LR away from pos, none toward it (the
// actor, a gendered noun, takes no inserted adjective, so female is the only group): the lean
// survives the exact sign test (p = 2/256), so the page says the model disfavours female, with
// the share, its interval and the p-value; summary.json carries the same test.
TEST_F(FairReportCommand, ADirectionBeyondChanceIsStatedWithItsTest) {
  std::string lines;
  for (int i = 0; i < 8; ++i) lines += "the actor was wonderful\n";
  const auto in = dir_.write("eight.txt", lines);
  auto r = run_assay(dir_, "fair test --quiet --model lr:" + lr_ + " --input " + in + " --out " +
                               dir_.file("eight"));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto s = nlohmann::json::parse(read_file(dir_.file("eight/summary.json")));
  const auto& female = s["by_group"]["female"]["direction_test"];
  EXPECT_EQ(female["label"], "pos");
  EXPECT_EQ(female["toward"], 0);
  EXPECT_EQ(female["away"], 8);
  EXPECT_NEAR(female["p"].get<double>(), 2.0 / 256, 1e-12);
  EXPECT_NEAR(female["p_holm"].get<double>(), 2.0 / 256, 1e-12);  // one group: no correction
  EXPECT_EQ(female["lean"], -1);
  EXPECT_EQ(s["by_group"].size(), 1u);
  r = run_assay(dir_, "fair report --in " + dir_.file("eight") + " --out " + dir_.file("e.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(dir_.file("e.html"));
  EXPECT_THAT(html, HasSubstr("The model disfavours <b>female</b> beyond chance at the 5 % level "
                              "(exact sign test), by its label flips toward <i>pos</i>: rewritten "
                              "as female, 0 of 8 flips toward <i>pos</i> (95 % interval of the "
                              "share 0.00–0.37, p = 0.0078)"));
}

}  // namespace
}  // namespace assay::fairness
