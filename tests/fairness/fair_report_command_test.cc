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
  EXPECT_THAT(html, HasSubstr("change the label of <b>lr</b> when the person's gender changes"));
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
  EXPECT_THAT(html, HasSubstr("(2 models)"));
  EXPECT_THAT(html, HasSubstr("<th class=\"num\">lr-b</th>"));
  // Without fair mitigate's results the page says what to run.
  r = run_assay(dir_, "fair report --in " + dir_.file("lr-b") + " --out " + dir_.file("b.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  html = read_file(dir_.file("b.html"));
  EXPECT_THAT(html, HasSubstr("No mitigation results given (mitigation.json)"));
  EXPECT_THAT(html, Not(HasSubstr("Figure 5")));
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

}  // namespace
}  // namespace assay::fairness
