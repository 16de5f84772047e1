// `assay rec recommend` end to end through the real binary: output shape, byte-identical
// output for 1 and 2 threads, bad input (exit 2, file:line, nothing written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/temp_dir.h"

namespace {

using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

const std::string kSpec = "synthetic:users=60,items=90,ratings=1500,seed=4";

TEST(RecRecommendCommand, WritesOneLinePerUserSameBytesForAnyThreadCount) {
  TempDir dir;
  for (const char* algorithm : {"user-user", "item-item", "funk-svd", "hybrid"}) {
    const auto one = dir.file(std::string(algorithm) + "-1.jsonl");
    const auto two = dir.file(std::string(algorithm) + "-2.jsonl");
    auto r = run_assay(dir, "rec recommend --data " + kSpec + " --algorithm " + algorithm +
                                " --top-k 5 --seed 3 --threads 1 --out " + one);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("ranked"));
    r = run_assay(dir, "rec recommend --data " + kSpec + " --algorithm " + algorithm +
                           " --top-k 5 --seed 3 --threads 2 --quiet --out " + two);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty());
    const std::string text = read_file(one);
    EXPECT_EQ(text, read_file(two)) << algorithm;
    std::istringstream lines(text);
    std::string line;
    std::size_t n = 0;
    while (std::getline(lines, line)) {
      const auto j = nlohmann::json::parse(line);
      EXPECT_EQ(j["user"], std::to_string(n + 1));
      ASSERT_EQ(j["items"].size(), 5u) << algorithm;
      const double first = j["items"][0]["score"].get<double>();
      EXPECT_GE(first, j["items"][4]["score"].get<double>());
      ++n;
    }
    EXPECT_EQ(n, 60u);
  }
}

TEST(RecRecommendCommand, MovieLensFixtureToStdout) {
  TempDir dir;
  const auto r =
      run_assay(dir, "rec recommend --data movielens-100k:" + std::string(ASSAY_TEST_DATA_DIR) +
                         "/recsys/ml100k-tiny --algorithm funk-svd --top-k 2 --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out.substr(0, r.out.find('\n')));
  EXPECT_EQ(j["user"], "1");
  ASSERT_EQ(j["items"].size(), 1u);  // user 1 rated 3 of the 4 items
  EXPECT_EQ(j["items"][0]["item"], "4");
}

TEST(RecRecommendCommand, BadDataExitsTwoAndWritesNothing) {
  TempDir dir;
  dir.write("u.data", "1\t1\t5\t0\n1\t2\t9\t0\n");
  const auto out = dir.file("out.jsonl");
  const auto r = run_assay(dir, "rec recommend --data movielens-100k:" + dir.path().string() +
                                    " --algorithm item-item --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("u.data:2"));
  EXPECT_THAT(r.err, HasSubstr("off the scale"));
  EXPECT_FALSE(std::filesystem::exists(out));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
  }
}

TEST(RecRecommendCommand, UsageErrors) {
  TempDir dir;
  auto r = run_assay(dir, "rec recommend --data " + kSpec + " --algorithm svd++");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown algorithm 'svd++'"));
  r = run_assay(dir, "rec recommend --data netflix:/x --algorithm funk-svd");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown data spec"));
  r = run_assay(dir, "rec recommend --data " + kSpec + " --algorithm funk-svd --top-k 0");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(RecRecommendCommand, ItemItemAboveTheDenseCapKeepsBoundedListsInBoundedMemory) {
  TempDir dir;
  // 20,000 items: the dense matrix alone would be 20,000^2 floats = 1.6 GB.
  const std::string spec = "synthetic:users=200,items=20000,ratings=20000,seed=1";
  const auto out = dir.file("top.jsonl");
  auto r = run_assay(
      dir, "rec recommend --data " + spec + " --algorithm item-item:keep=all --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("at most 16384 items; the data has 20000"));
  EXPECT_FALSE(std::filesystem::exists(out));
  for (const char* bad : {"keep=0", "keep=many", "keep=1000001", "keep=-1"}) {
    r = run_assay(
        dir, "rec recommend --data " + spec + " --algorithm item-item:" + bad + " --out " + out);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_THAT(r.err, HasSubstr("for key 'keep'")) << bad;
    EXPECT_FALSE(std::filesystem::exists(out)) << bad;
  }
  r = run_assay(dir,
                "rec recommend --data " + spec + " --algorithm item-item --quiet --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rusage usage{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
  // The largest child's peak (kB), sanitiser overhead included: far below the dense matrix.
  EXPECT_LT(usage.ru_maxrss, 800L * 1024) << "peak " << usage.ru_maxrss / 1024 << " MB";
  std::istringstream lines(read_file(out));
  std::string line;
  std::size_t n = 0;
  while (std::getline(lines, line)) {
    EXPECT_EQ(nlohmann::json::parse(line)["items"].size(), 10u);
    ++n;
  }
  EXPECT_EQ(n, 200u);
  // The same lists whatever the thread count.
  const auto two = dir.file("two.jsonl");
  r = run_assay(dir, "rec recommend --data " + spec +
                         " --algorithm item-item:keep=1000 --threads 2 --quiet --out " + two);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(out), read_file(two));
}

TEST(RecRecommendCommand, HelpNamesTheDenseCapsAndKeep) {
  TempDir dir;
  const auto r = run_assay(dir, "rec recommend --help");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("up to 16384 items"));
  EXPECT_THAT(r.out, HasSubstr("item-item:keep=K|all|auto"));
  EXPECT_THAT(r.out, HasSubstr("up to 16384 users"));
}

}  // namespace
