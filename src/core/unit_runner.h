// run_units: executes the units of a plan (unit_plan.h) that this shard owns and that are not
// finished yet, in plan order, in parallel on a core::ThreadPool, with progress on stderr.
//
// The engine keeps the results: `execute` runs one unit and records it durably (e.g. one
// committed row in a UnitStore table) before returning, and `finished` lists the keys already
// recorded, so calling run_units again after an interruption (kill -9, stop_after) executes
// exactly the units still missing. A unit's seed is in PlannedUnit::seed; results must depend
// on nothing else that varies (not the thread, not the shard, not the order).
//
// How an engine runs keyed units:
//   1. open its store (a UnitStore plus its result tables), take store.lock(), check_identity
//      with everything that must not change between a run and its resumption (data hashes,
//      seed, settings) and merge the stores of other shards;
//   2. build the plan: one key per unit, in the order it prefers;
//   3. run_units(plan, keys finished in the store, execute-and-record, options);
//   4. read the results back from the store in plan order and report them; complete when every
//      unit is in the store, shard-complete when every unit of this shard is.
// The first exception thrown by `execute` stops the run (units in flight finish, later ones
// are not started) and is rethrown; every unit recorded before it stays recorded.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/progress.h"
#include "core/shard.h"
#include "core/unit_plan.h"

namespace assay::core {

struct UnitRunOptions {
  Shard shard;
  std::size_t n_threads = 1;  // units run in parallel
  // Execute at most this many units (0: no limit), then return as if interrupted; how tests
  // and demonstrations stop a run part way.
  std::size_t stop_after = 0;
  // When set and it becomes true (e.g. from a SIGINT/SIGTERM handler), no further unit is
  // started; units in flight finish and are recorded, the rest stay kPending, and run_units
  // returns normally so the caller can say how to resume.
  const std::atomic<bool>* stop_requested = nullptr;
  std::string label = "units";  // progress label
  ProgressOptions progress;
};

enum class UnitState : unsigned char {
  kOtherShard,  // owned by another shard; not looked at
  kFinished,    // found finished before this call
  kExecuted,    // executed and recorded by this call
  kPending,     // owned, not finished, not executed (stop_after)
};

struct UnitRunReport {
  std::vector<UnitState> state;  // per plan unit
  std::size_t n_owned = 0;       // units of this shard
  std::size_t n_finished = 0;    // of them, finished before the call
  std::size_t n_executed = 0;    // executed now
  std::size_t n_pending = 0;     // still missing (only with stop_after)
  bool shard_complete() const { return n_pending == 0; }
};

UnitRunReport run_units(const UnitPlan& plan, const std::unordered_set<std::string>& finished,
                        const std::function<void(const PlannedUnit&)>& execute,
                        const UnitRunOptions& options);

}  // namespace assay::core
