#include "models/answer_cache.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "support/temp_dir.h"

namespace {

using assay::models::AnswerCache;
using assay::testing::TempDir;

TEST(AnswerCache, ScoresRoundTripBitForBit) {
  const std::vector<double> scores{0.1, 1.0 / 3.0, 5e-324, 1.7976931348623157e308, -0.0, 1e-17};
  const auto text = AnswerCache::encode_scores(scores);
  const auto back = AnswerCache::decode_scores(text);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->size(), scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    EXPECT_EQ(std::signbit((*back)[i]), std::signbit(scores[i]));
    EXPECT_EQ((*back)[i], scores[i]);
  }
  EXPECT_FALSE(AnswerCache::decode_scores("1,"));
  EXPECT_FALSE(AnswerCache::decode_scores("1;2"));
  EXPECT_FALSE(AnswerCache::decode_scores("x"));
}

TEST(AnswerCache, KeyedByIdentityAndExactText) {
  TempDir dir;
  AnswerCache cache(dir.file("c.sqlite"));
  cache.store("lr:sha256:aa", {"good film", "Good film"}, {{0.2, 0.8}, {0.3, 0.7}});
  cache.store("cmd:x", {"good film"}, {{0.9, 0.1}});
  const auto a = cache.find("lr:sha256:aa", {"good film", "Good film", "good film ", "x"});
  ASSERT_TRUE(a[0] && a[1]);
  EXPECT_EQ(*a[0], (std::vector<double>{0.2, 0.8}));
  EXPECT_EQ(*a[1], (std::vector<double>{0.3, 0.7}));
  EXPECT_FALSE(a[2]);  // exact text: a trailing blank is another text
  EXPECT_FALSE(a[3]);
  EXPECT_EQ(*cache.find("cmd:x", {"good film"})[0], (std::vector<double>{0.9, 0.1}));
  EXPECT_FALSE(cache.find("unknown", {"good film"})[0]);
  EXPECT_EQ(cache.count("lr:sha256:aa"), 2);
  EXPECT_EQ(cache.count("nobody"), 0);
  // A second connection (another process would be the same) sees committed answers.
  AnswerCache reader(dir.file("c.sqlite"));
  EXPECT_EQ(*reader.find("cmd:x", {"good film"})[0], (std::vector<double>{0.9, 0.1}));
}

TEST(AnswerCache, LabelsAreKeptPerModel) {
  TempDir dir;
  {
    AnswerCache cache(dir.file("c.sqlite"));
    EXPECT_FALSE(cache.labels("m1").has_value());
    cache.store_labels("m1", {"neg", "pos"});
    cache.store_labels("m2", {"0", "1", "2"});
  }
  AnswerCache cache(dir.file("c.sqlite"));  // the file, not the process, keeps them
  EXPECT_EQ(cache.labels("m1"), (std::vector<std::string>{"neg", "pos"}));
  EXPECT_EQ(cache.labels("m2"), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_FALSE(cache.labels("m3").has_value());
}

TEST(AnswerCache, KillNineLeavesEveryBatchWholeOrAbsent) {
  TempDir dir;
  const std::string path = dir.file("c.sqlite");
  { AnswerCache create(path); }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    AnswerCache cache(path);
    for (int batch = 0;; ++batch) {
      std::vector<std::string> texts;
      std::vector<std::vector<double>> scores;
      for (int k = 0; k < 50; ++k) {
        texts.push_back("batch " + std::to_string(batch) + " text " + std::to_string(k));
        scores.push_back({static_cast<double>(batch), static_cast<double>(k)});
      }
      cache.store("m", texts, scores);
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  AnswerCache cache(path);
  const auto n = cache.count("m");
  EXPECT_GT(n, 0);
  EXPECT_EQ(n % 50, 0) << "a batch was stored in part";
  const auto n_batches = static_cast<int>(n / 50);
  for (int batch = 0; batch <= n_batches; ++batch) {
    std::vector<std::string> texts;
    for (int k = 0; k < 50; ++k) {
      texts.push_back("batch " + std::to_string(batch) + " text " + std::to_string(k));
    }
    const auto found = cache.find("m", texts);
    for (int k = 0; k < 50; ++k) {
      ASSERT_EQ(static_cast<bool>(found[k]), batch < n_batches) << batch << " " << k;
      if (found[k]) {
        EXPECT_EQ(*found[k], (std::vector<double>{double(batch), double(k)}));
      }
    }
  }
}

}  // namespace
