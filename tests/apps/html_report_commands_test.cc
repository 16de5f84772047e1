// Every HTML report assay writes, rendered in headless Chromium by
// tests/support/browser/check_html_report.sh: it fails on an error on the page or in the
// console, a blank page, a page or chart wider than the window, chart text outside its chart
// and overlapping chart texts (axis and tick labels, legends, titles). The screenshots stay
// under the build tree (ASSAY_SCREENSHOT_DIR) for a person to look at.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fairness/biased_lr.h"
#include "support/temp_dir.h"

namespace assay {
namespace {

using testing::read_file;
using testing::run_assay;
using testing::TempDir;

const std::string kChecker =
    std::string(ASSAY_TEST_DATA_DIR) + "/../support/browser/check_html_report.sh";

// Runs the check; the failure message carries what it found.
void expect_renders_cleanly(const TempDir& dir, const std::string& report,
                            const std::string& screenshot) {
  const std::string log = dir.file("check.log");
  const std::string shot = std::string(ASSAY_SCREENSHOT_DIR) + "/" + screenshot;
  const int status = std::system(
      ("bash " + kChecker + " " + report + " " + shot + " >" + log + " 2>&1 </dev/null").c_str());
  ASSERT_TRUE(WIFEXITED(status)) << read_file(log);
  EXPECT_EQ(WEXITSTATUS(status), 0) << read_file(log);
  EXPECT_NE(read_file(log).find(" charts, "), std::string::npos) << read_file(log);
}

// The checker itself: a page with overlapping labels, one running off the page, one with text
// outside its chart, one with a script error and a blank one all fail, each for its reason.
TEST(HtmlReports, CheckerFailsOnBrokenPages) {
  TempDir dir;
  const std::string text = "<p>" + std::string(60, 'x') + "</p>";
  const std::string svg_head =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"100\"><text x=\"10\" "
      "y=\"50\">first label</text>";
  struct Page {
    const char* name;
    std::string body;
    const char* problem;
  };
  const Page pages[] = {
      {"overlap.html", text + svg_head + "<text x=\"30\" y=\"52\">second label</text></svg>",
       "texts overlap: \"first label\" and \"second label\""},
      {"wide.html",
       text + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"3000\" "
              "height=\"50\"><text x=\"10\" y=\"20\">a</text></svg>",
       "runs off the page"},
      {"outside.html",
       text + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\" "
              "overflow=\"visible\"><text x=\"60\" y=\"20\">a long label</text></svg>",
       "lies outside the chart"},
      {"error.html", text + "<script>undefined_function();</script>", "page error: "},
      {"blank.html", "", "blank page"},
  };
  for (const auto& [name, body, problem] : pages) {
    const std::string page = dir.write(
        name, std::string("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>") +
                  body + "</body></html>\n");
    const int status = std::system(("bash " + kChecker + " " + page + " " + dir.file("x.png") +
                                    " >" + dir.file("log") + " 2>&1 </dev/null")
                                       .c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1) << name << ": " << read_file(dir.file("log"));
    EXPECT_NE(read_file(dir.file("log")).find(problem), std::string::npos)
        << name << ": " << read_file(dir.file("log"));
  }
  const std::string good = dir.write("good.html", "<!DOCTYPE html><html><head></head><body>" +
                                                      text + svg_head + "</svg></body></html>\n");
  expect_renders_cleanly(dir, good, "checker-good.png");
}

TEST(HtmlReports, FairReport) {
  TempDir dir;
  const std::string lr = fairness::testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const auto in = dir.write("in.txt",
                            "the actor was wonderful\na great actor and a great film\n"
                            "the film was wonderful\nthe actors were wonderful and the director "
                            "was great\nmy brother and his wife loved the actress\n");
  std::string dirs;
  for (const char* name : {"built-in-lr", "built-in-lr-again"}) {
    const std::string common = " --model lr:" + lr + " --input " + in + " --cache " +
                               dir.file("cache.sqlite") + " --quiet --out " + dir.file(name);
    auto r = run_assay(dir, "fair test" + common);
    ASSERT_EQ(r.exit_code, 1) << r.err;
    r = run_assay(dir, "fair mitigate --epsilon 0.1,0.5,1,1.8,5,10" + common);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    dirs += " --in " + dir.file(name);
  }
  const auto r = run_assay(dir, "fair report" + dirs + " --out " + dir.file("fair.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_renders_cleanly(dir, dir.file("fair.html"), "fair-report.png");
}

// A campaign with three algorithms and every heuristic: 21 bars groups in Figure 2.
TEST(HtmlReports, RecCampaignReport) {
  TempDir dir;
  const auto r =
      run_assay(dir,
                "rec campaign --data synthetic:users=60,items=80,ratings=1200,seed=5 --algorithms "
                "user-user,item-item,funk-svd --sizes 1,4 --trials 2 --seed 9 --noise-trials 1 "
                "--threads 2 --delta 0 --quiet --store " +
                    dir.file("s.sqlite") + " --out " + dir.file("c"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_renders_cleanly(dir, dir.file("c/report.html"), "rec-campaign-report.png");
}

// A user's first campaigns on real data, whole stars (MovieLens 100K) and half stars (the same
// ratings in MovieLens latest's format, every other one half a star lower: ten rating values,
// so ten I_R figures per configuration): each page fits the 1280 px window.
TEST(HtmlReports, RecCampaignReportOnWholeAndHalfStarMovieLens) {
  const std::string ml = std::string(ASSAY_SHARED_DATA_DIR) + "/movielens-100k";
  if (!std::filesystem::exists(ml + "/u.data")) GTEST_SKIP() << "no shared MovieLens 100K";
  TempDir dir;
  std::ifstream in(ml + "/u.data");
  std::string csv = "userId,movieId,rating,timestamp\n", line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    long user = 0, item = 0, time = 0;
    double rating = 0;
    fields >> user >> item >> rating >> time;
    if ((user + item) % 2 == 1) rating -= 0.5;
    std::ostringstream out;
    out << user << ',' << item << ',' << rating << ',' << time << '\n';
    csv += out.str();
  }
  std::filesystem::create_directories(dir.file("half"));
  dir.write("half/ratings.csv", csv);
  const std::string specs[] = {"movielens-100k:" + ml, "movielens-latest:" + dir.file("half")};
  for (const std::string& data : specs) {
    const std::string name = data.starts_with("movielens-100k") ? "whole" : "half";
    SCOPED_TRACE(name);
    const auto r = run_assay(dir, "rec campaign --data " + data +
                                      " --algorithms item-item --heuristics AMR,ARAND "
                                      "--sizes 1,10 --trials 2 --noise-trials 0 --threads 2 "
                                      "--quiet --store " +
                                      dir.file(name + ".sqlite") + " --out " + dir.file(name));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string html = read_file(dir.file(name + "/report.html"));
    EXPECT_NE(html.find(name == "half" ? "I_R(r) per rating value r" : "I_R(5)</th>"),
              std::string::npos)
        << html.substr(0, 3000);
    expect_renders_cleanly(dir, dir.file(name + "/report.html"),
                           "rec-campaign-report-" + name + "-star.png");
  }
}

}  // namespace
}  // namespace assay
