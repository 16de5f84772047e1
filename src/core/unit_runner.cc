#include "core/unit_runner.h"

#include <algorithm>
#include <atomic>

#include "core/thread_pool.h"

namespace assay::core {

UnitRunReport run_units(const UnitPlan& plan, const std::unordered_set<std::string>& finished,
                        const std::function<void(const PlannedUnit&)>& execute,
                        const UnitRunOptions& options) {
  UnitRunReport report;
  report.state.assign(plan.size(), UnitState::kOtherShard);
  std::vector<std::size_t> todo;
  for (std::size_t u = 0; u < plan.size(); ++u) {
    if (!options.shard.owns(plan[u].slot)) continue;
    ++report.n_owned;
    if (finished.count(plan[u].key) != 0) {
      report.state[u] = UnitState::kFinished;
      ++report.n_finished;
    } else {
      report.state[u] = UnitState::kPending;
      todo.push_back(u);
    }
  }
  const std::size_t limit = options.stop_after == 0 ? todo.size() : options.stop_after;
  Progress progress(options.label, std::min(limit, todo.size()), options.progress);
  // A unit claimed past the limit is skipped; claims follow plan order, so a single-threaded
  // run with stop_after = N executes exactly the first N missing units.
  std::atomic<std::size_t> claimed{0};
  std::vector<unsigned char> done(todo.size(), 0);
  ThreadPool pool(options.n_threads);
  pool.parallel_for(0, todo.size(), 1, [&](std::size_t j) {
    if (options.stop_requested != nullptr && options.stop_requested->load()) return;
    if (claimed.fetch_add(1) >= limit) return;
    execute(plan[todo[j]]);
    done[j] = 1;
    progress.add();
  });
  progress.finish();
  for (std::size_t j = 0; j < todo.size(); ++j) {
    if (done[j] != 0) {
      report.state[todo[j]] = UnitState::kExecuted;
      ++report.n_executed;
    }
  }
  report.n_pending = todo.size() - report.n_executed;
  return report;
}

}  // namespace assay::core
