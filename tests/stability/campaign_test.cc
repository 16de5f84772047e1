#include "stability/campaign.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "campaign_fixture.h"
#include "core/error.h"
#include "core/sqlite_store.h"
#include "recsys/synthetic_ratings.h"
#include "stability/campaign_analysis.h"
#include "stability/replay.h"
#include "support/temp_dir.h"

namespace assay::stability {
namespace {

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void expect_same_runs(const CampaignResults& a, const CampaignResults& b) {
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (std::size_t k = 0; k < a.runs.size(); ++k) {
    const auto& x = a.runs[k];
    const auto& y = b.runs[k];
    SCOPED_TRACE(x.key.to_string());
    EXPECT_EQ(x.key, y.key);
    EXPECT_EQ(x.seed, y.seed);
    EXPECT_EQ(x.n_modifications, y.n_modifications);
    for (std::size_t o = 0; o < kNumOracles; ++o) EXPECT_TRUE(same_bits(x.oracle[o], y.oracle[o]));
  }
  ASSERT_EQ(a.noise.size(), b.noise.size());
  for (std::size_t k = 0; k < a.noise.size(); ++k) {
    for (std::size_t o = 0; o < kNumOracles; ++o) {
      EXPECT_TRUE(same_bits(a.noise[k].oracle[o], b.noise[k].oracle[o]));
    }
  }
}

TEST(Campaign, InterruptedAndResumedEqualsUninterruptedBitwise) {
  const auto data = testing::small_synthetic();
  const auto config = testing::small_config();
  const std::size_t n_runs = campaign_keys(config).size();
  ::assay::testing::TempDir dir;

  CampaignStore whole_store(dir.file("whole.sqlite"));
  auto two_threads = config;
  two_threads.n_threads = 2;
  const auto whole = run_campaign(data, two_threads, whole_store);
  EXPECT_TRUE(whole.complete);
  EXPECT_EQ(whole.runs.size(), n_runs);
  EXPECT_EQ(whole.n_resumed, 0u);

  // Interrupted after 7 jobs (2 noise retrainings + 5 runs), single-threaded ...
  auto first = config;
  first.stop_after = 7;
  {
    CampaignStore store(dir.file("parts.sqlite"));
    const auto part = run_campaign(data, first, store);
    EXPECT_FALSE(part.complete);
    EXPECT_EQ(part.runs.size(), 5u);
    EXPECT_EQ(part.n_executed, 5u);
  }
  // ... then resumed from a freshly opened store with two threads.
  CampaignStore store(dir.file("parts.sqlite"));
  const auto resumed = run_campaign(data, two_threads, store);
  EXPECT_TRUE(resumed.complete);
  EXPECT_EQ(resumed.n_resumed, 5u);
  EXPECT_EQ(resumed.n_executed, n_runs - 5);
  expect_same_runs(whole, resumed);
  // Nothing was recorded twice (the key is the primary key) and nothing is left to do.
  EXPECT_EQ(store.runs().size(), n_runs);
  const auto again = run_campaign(data, two_threads, store);
  EXPECT_EQ(again.n_executed, 0u);
  expect_same_runs(whole, again);
}

TEST(Campaign, ModificationsChangeRecommendationsBeyondNoise) {
  const auto data = testing::small_synthetic();
  auto config = testing::small_config();
  ::assay::testing::TempDir dir;
  CampaignStore store(dir.file("s.sqlite"));
  const auto results = run_campaign(data, config, store);
  double max_jaccard = 0;
  for (const auto& r : results.runs) {
    for (const double v : r.oracle) {
      EXPECT_GE(v, 0.0);
      EXPECT_LE(v, 1.0);
    }
    if (r.key.size == 8) max_jaccard = std::max(max_jaccard, r.oracle[1]);
  }
  EXPECT_GT(max_jaccard, 0.0);  // 8 modifications do move some top-10 list
  // user-user and item-item are deterministic: another seed changes nothing.
  for (const auto& n : results.noise) EXPECT_EQ(n.oracle[0], 0.0) << n.algorithm;

  // Replaying a run's set reproduces the run's oracle values exactly.
  const auto sets = sets_exceeding(data, config, results, -1.0, Oracle::kTopOut);
  ASSERT_EQ(sets.size(), results.runs.size());
  const auto& set = sets.back();
  const auto replay =
      replay_modification_set(data, set.modifications, set.key.algorithm, set.model_seed, set.k);
  for (std::size_t o = 0; o < kNumOracles; ++o) {
    EXPECT_TRUE(same_bits(replay.oracle[o], results.runs.back().oracle[o]));
  }
}

TEST(Campaign, StoreOfAnotherCampaignIsRefused) {
  const auto data = testing::small_synthetic();
  auto config = testing::small_config();
  config.stop_after = 1;
  ::assay::testing::TempDir dir;
  const std::string path = dir.file("c.sqlite");
  {
    CampaignStore store(path);
    run_campaign(data, config, store);
  }
  config.seed = 12;
  CampaignStore store(path);
  try {
    run_campaign(data, config, store);
    FAIL() << "expected UsageError";
  } catch (const core::UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("c.sqlite"), std::string::npos) << what;
    EXPECT_NE(what.find("seed is '11'"), std::string::npos) << what;
  }
}

// Many machines: three shards into three stores, merged into a fourth, equal the campaign run
// whole, bit for bit; no run is executed twice and the shards split the work.
TEST(Campaign, ShardsMergedEqualTheWholeCampaignBitwise) {
  const auto data = testing::small_synthetic();
  const auto config = testing::small_config();
  const std::size_t n_runs = campaign_keys(config).size();
  ::assay::testing::TempDir dir;
  CampaignStore whole_store(dir.file("whole.sqlite"));
  const auto whole = run_campaign(data, config, whole_store);
  ASSERT_TRUE(whole.complete);

  std::vector<std::string> shard_paths;
  std::size_t executed = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    auto shard = config;
    shard.shard = {i, 3};
    shard_paths.push_back(dir.file("shard" + std::to_string(i) + ".sqlite"));
    CampaignStore store(shard_paths.back());
    const auto part = run_campaign(data, shard, store);
    EXPECT_FALSE(part.complete);
    EXPECT_TRUE(part.shard_complete);
    EXPECT_GE(part.n_executed, n_runs / 3);
    EXPECT_LE(part.n_executed, n_runs / 3 + 1);
    executed += part.n_executed;
  }
  EXPECT_EQ(executed, n_runs);

  auto merged_config = config;
  merged_config.merge_from = shard_paths;
  CampaignStore merged_store(dir.file("merged.sqlite"));
  const auto merged = run_campaign(data, merged_config, merged_store);
  EXPECT_TRUE(merged.complete);
  EXPECT_EQ(merged.n_merged, n_runs);
  EXPECT_EQ(merged.n_executed, 0u);
  expect_same_runs(whole, merged);
  // Merging again adds nothing.
  const auto again = run_campaign(data, merged_config, merged_store);
  EXPECT_EQ(again.n_merged, 0u);
  expect_same_runs(whole, again);
}

TEST(Campaign, MergingAStoreOfAnotherCampaignOrNoStoreIsRefused) {
  const auto data = testing::small_synthetic();
  auto config = testing::small_config();
  config.stop_after = 1;
  ::assay::testing::TempDir dir;
  {
    CampaignStore other(dir.file("other.sqlite"));
    auto seed12 = config;
    seed12.seed = 12;
    run_campaign(data, seed12, other);
  }
  config.merge_from = {dir.file("other.sqlite")};
  CampaignStore store(dir.file("mine.sqlite"));
  try {
    run_campaign(data, config, store);
    FAIL() << "expected UsageError";
  } catch (const core::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("other.sqlite"), std::string::npos) << e.what();
  }
  config.merge_from = {dir.file("absent.sqlite")};
  EXPECT_THROW(run_campaign(data, config, store), core::IoError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("absent.sqlite")));
}

// A shard whose rows were tampered with (a heuristic no campaign has, a value that is not a
// number) is refused naming the shard and the row, and nothing of it is copied: the merged
// store still runs the whole campaign.
TEST(Campaign, MergingATamperedShardNamesItAndCopiesNothing) {
  const auto data = testing::small_synthetic();
  const auto config = testing::small_config();
  ::assay::testing::TempDir dir;
  const std::string shard_path = dir.file("shard.sqlite");
  {
    auto shard = config;
    shard.shard = {0, 2};
    CampaignStore store(shard_path);
    run_campaign(data, shard, store);
  }
  const auto expect_refused = [&](const std::string& tamper, const std::string& expected) {
    const std::string copy = dir.file("tampered.sqlite");
    std::filesystem::copy_file(shard_path, copy, std::filesystem::copy_options::overwrite_existing);
    {
      core::SqliteStore db(copy);
      db.exec(tamper);
    }
    auto merged_config = config;
    merged_config.merge_from = {copy};
    CampaignStore merged(dir.file("merged.sqlite"));
    try {
      run_campaign(data, merged_config, merged);
      ADD_FAILURE() << "merged " << tamper;
    } catch (const core::ParseError& e) {
      EXPECT_NE(std::string(e.what()).find(copy + ": run of '"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    EXPECT_TRUE(merged.finished_keys().empty());
  };
  expect_refused("UPDATE runs SET heuristic = 'NOPE' WHERE rowid = 1", "NOPE");
  expect_refused("UPDATE runs SET top_out = 'x' WHERE rowid = 1", "must be numbers");
  expect_refused("UPDATE runs SET trial = -1 WHERE rowid = 1", "must be whole numbers");
  CampaignStore merged(dir.file("merged.sqlite"));
  EXPECT_TRUE(run_campaign(data, config, merged).complete);
}

// The shard's spelling is core::parse_shard's (tests/core/shard_test.cc); a shard outside the
// campaign's count is refused before anything runs.
TEST(Campaign, ShardOutsideItsCountIsUsageError) {
  const auto data = testing::small_synthetic();
  ::assay::testing::TempDir dir;
  CampaignStore store(dir.file("s.sqlite"));
  auto config = testing::small_config();
  config.shard = {2, 2};
  EXPECT_THROW(run_campaign(data, config, store), core::UsageError);
}

TEST(Campaign, BadConfigurationIsUsageError) {
  const auto data = testing::small_synthetic();
  ::assay::testing::TempDir dir;
  CampaignStore store(dir.file("b.sqlite"));
  auto config = testing::small_config();
  config.algorithms = {"nope"};
  EXPECT_THROW(run_campaign(data, config, store), core::UsageError);
  config = testing::small_config();
  config.sizes = {0};
  EXPECT_THROW(run_campaign(data, config, store), core::UsageError);
  config = testing::small_config();
  config.trials = 0;
  EXPECT_THROW(run_campaign(data, config, store), core::UsageError);
}

// The main job's data (synthetic, 300 users, 500 items, 20,000 ratings) with and without the
// obscure items rated only 5 stars that real data has: with them, AMR (additions to items whose
// mean is the most influential rating value) moves far more users' top item than random
// additions, beyond Holm's correction; without them it does not.
TEST(Campaign, PlantedTopOnlyItemsMakeAmrBeatRandomAfterCorrection) {
  CampaignConfig config;
  config.algorithms = {"user-user"};
  config.heuristics = {Heuristic::kAmr, Heuristic::kArand};
  config.sizes = {10};
  config.trials = 10;
  config.seed = 1;
  config.noise_trials = 0;
  config.n_threads = 2;
  config.progress.quiet = true;
  recsys::SyntheticOptions o;
  o.n_users = 300;
  o.n_items = 500;
  o.n_ratings = 20000;
  o.seed = 1;
  double ratio[2] = {0, 0};
  for (const std::size_t planted : {0, 12}) {
    SCOPED_TRACE("top_only=" + std::to_string(planted));
    o.top_only_items = planted;
    const auto data = recsys::generate_synthetic_ratings(o);
    ::assay::testing::TempDir dir;
    CampaignStore store(dir.file("s.sqlite"));
    config.data_description = "synthetic:top_only=" + std::to_string(planted);
    const auto summary = analyse_campaign(config, run_campaign(data, config, store));
    const auto* amr = find_cell(summary, "user-user", Heuristic::kAmr, 10, Oracle::kTopOut);
    ASSERT_NE(amr, nullptr);
    EXPECT_EQ(survives_correction(*amr), planted > 0) << amr->mean << " p " << amr->p;
    ratio[planted ? 1 : 0] = amr->mean / amr->baseline_mean;
  }
  EXPECT_GT(ratio[1], 5.0);
}

}  // namespace
}  // namespace assay::stability
