// The core runner with a tiny engine: each unit draws one number from its seed and records
// (key, seed, value) in a UnitStore table, as an engine's store does.
#include "core/unit_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "core/error.h"
#include "core/rng.h"
#include "core/unit_store.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::assay::testing::TempDir;

struct Engine {
  explicit Engine(const std::string& path) : store(path) {
    store.db().exec(
        "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, seed INTEGER, value REAL)");
  }
  std::unordered_set<std::string> finished() const {
    std::unordered_set<std::string> out;
    auto q = store.db().prepare("SELECT key FROM results");
    while (q.step()) out.insert(q.column_text(0));
    return out;
  }
  std::map<std::string, std::pair<std::int64_t, double>> rows() const {
    std::map<std::string, std::pair<std::int64_t, double>> out;
    auto q = store.db().prepare("SELECT key, seed, value FROM results");
    while (q.step()) out[q.column_text(0)] = {q.column_int64(1), q.column_double(2)};
    return out;
  }
  UnitRunReport run(const UnitPlan& plan, UnitRunOptions options) {
    options.progress.quiet = true;
    const auto lock = store.lock();
    return run_units(
        plan, finished(), [&](const PlannedUnit& u) { record(u); }, options);
  }
  void record(const PlannedUnit& u) {
    Rng rng(u.seed);
    const double value = rng.uniform();
    std::lock_guard guard(mutex);
    auto insert = store.db().prepare("INSERT INTO results VALUES (?, ?, ?)");
    insert.bind(1, std::string_view(u.key))
        .bind(2, static_cast<std::int64_t>(u.seed))
        .bind(3, value);
    insert.run();
    ++n_calls;
  }
  UnitStore store;
  std::mutex mutex;
  std::size_t n_calls = 0;
};

UnitPlan plan_of(std::size_t n, std::uint64_t seed = 42) {
  UnitPlan plan(seed);
  for (std::size_t i = 0; i < n; ++i) plan.add("cell|" + std::to_string(i));
  return plan;
}

TEST(UnitRunner, RunsEveryUnitOnceWithItsSeed) {
  TempDir dir;
  Engine engine(dir.file("s.sqlite"));
  const auto plan = plan_of(20);
  UnitRunOptions options;
  options.n_threads = 3;
  const auto report = engine.run(plan, options);
  EXPECT_EQ(report.n_owned, 20u);
  EXPECT_EQ(report.n_executed, 20u);
  EXPECT_TRUE(report.shard_complete());
  const auto rows = engine.rows();
  ASSERT_EQ(rows.size(), 20u);
  for (const auto& u : plan.units()) {
    EXPECT_EQ(static_cast<std::uint64_t>(rows.at(u.key).first), unit_seed(42, u.key));
  }
}

TEST(UnitRunner, ResumeSkipsFinishedUnitsAndEndsEqualToOneRun) {
  TempDir dir;
  const auto plan = plan_of(12);
  Engine whole(dir.file("whole.sqlite"));
  whole.run(plan, {});

  {
    Engine first(dir.file("parts.sqlite"));
    UnitRunOptions options;
    options.stop_after = 5;
    const auto report = first.run(plan, options);
    EXPECT_EQ(report.n_executed, 5u);
    EXPECT_EQ(report.n_pending, 7u);
    EXPECT_FALSE(report.shard_complete());
    // Single-threaded, the first five units in plan order.
    for (std::size_t u = 0; u < plan.size(); ++u) {
      EXPECT_EQ(report.state[u], u < 5 ? UnitState::kExecuted : UnitState::kPending) << u;
    }
  }
  Engine second(dir.file("parts.sqlite"));
  UnitRunOptions two_threads;
  two_threads.n_threads = 2;
  const auto report = second.run(plan, two_threads);
  EXPECT_EQ(report.n_finished, 5u);
  EXPECT_EQ(report.n_executed, 7u);
  EXPECT_EQ(second.n_calls, 7u);
  EXPECT_TRUE(report.shard_complete());
  EXPECT_EQ(second.rows(), whole.rows());
  // Once more: nothing left to do.
  EXPECT_EQ(second.run(plan, {}).n_executed, 0u);
}

TEST(UnitRunner, ShardsPartitionThePlanAndMergeToOneRun) {
  TempDir dir;
  const auto plan = plan_of(17);
  Engine whole(dir.file("whole.sqlite"));
  whole.run(plan, {});
  const StoreIdentity identity{{"seed", "42"}};
  whole.store.check_identity(identity);

  std::vector<std::string> paths;
  std::size_t owned = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    paths.push_back(dir.file("shard" + std::to_string(i) + ".sqlite"));
    Engine shard(paths.back());
    shard.store.check_identity(identity);
    UnitRunOptions options;
    options.shard = {i, 3};
    const auto report = shard.run(plan, options);
    owned += report.n_owned;
    EXPECT_EQ(report.n_executed, report.n_owned);
    for (const auto& [key, row] : shard.rows()) {
      EXPECT_TRUE(options.shard.owns(plan[plan.find(key)].slot)) << key;
    }
  }
  EXPECT_EQ(owned, plan.size());

  Engine merged(dir.file("merged.sqlite"));
  merged.store.check_identity(identity);
  std::size_t added = 0;
  for (const auto& p : paths) added += merged.store.merge(p, {"results"}, identity).at(0);
  EXPECT_EQ(added, plan.size());
  EXPECT_EQ(merged.rows(), whole.rows());
  // Merging again adds nothing; the merged store has nothing left to run.
  EXPECT_EQ(merged.store.merge(paths[0], {"results"}, identity).at(0), 0u);
  EXPECT_EQ(merged.run(plan, {}).n_executed, 0u);
}

TEST(UnitRunner, FirstFailureStopsTheRunAndKeepsWhatWasRecorded) {
  TempDir dir;
  Engine engine(dir.file("s.sqlite"));
  const auto plan = plan_of(10);
  UnitRunOptions options;
  options.progress.quiet = true;
  EXPECT_THROW(run_units(
                   plan, engine.finished(),
                   [&](const PlannedUnit& u) {
                     if (u.key == "cell|4") throw IoError("disk full");
                     engine.record(u);
                   },
                   options),
               IoError);
  EXPECT_EQ(engine.rows().size(), 4u);
  const auto report = engine.run(plan, {});
  EXPECT_EQ(report.n_finished, 4u);
  EXPECT_EQ(report.n_executed, 6u);
}

TEST(UnitRunner, StopRequestFinishesTheUnitInFlightAndStartsNoOther) {
  TempDir dir;
  Engine engine(dir.file("s.sqlite"));
  const auto plan = plan_of(10);
  std::atomic<bool> stop{false};
  UnitRunOptions options;
  options.progress.quiet = true;
  options.stop_requested = &stop;
  const auto report = run_units(
      plan, engine.finished(),
      [&](const PlannedUnit& u) {
        if (u.key == "cell|2") stop = true;  // as a signal handler would, mid-unit
        engine.record(u);
      },
      options);
  EXPECT_EQ(report.n_executed, 3u);
  EXPECT_EQ(report.n_pending, 7u);
  EXPECT_EQ(engine.rows().size(), 3u);
  EXPECT_EQ(engine.run(plan, {}).n_executed, 7u);
}

}  // namespace
}  // namespace assay::core
