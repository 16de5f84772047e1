#include "core/chunked_run.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>

#include "core/build_id.h"
#include "core/error.h"
#include "core/unit_store.h"

namespace assay::core {

std::vector<ChunkBounds> chunks_of(std::size_t n, std::size_t chunk_inputs) {
  const std::size_t chunk = std::max<std::size_t>(1, chunk_inputs);
  std::vector<ChunkBounds> out;
  for (std::size_t begin = 0; begin < n; begin += chunk)
    out.push_back({begin, std::min(n, begin + chunk)});
  return out;
}

UnitRunReport run_units_in_order(const UnitPlan& plan,
                                 const std::unordered_set<std::string>& finished,
                                 const UnitRunOptions& options,
                                 const std::function<void(std::size_t)>& execute,
                                 const std::function<void(std::size_t)>& before_rethrow) {
  std::vector<std::exception_ptr> errors(plan.size());
  std::atomic<bool> stop{false};
  UnitRunOptions ro = options;
  ro.stop_requested = &stop;
  const auto report = run_units(
      plan, finished,
      [&](const PlannedUnit& unit) {
        const std::size_t u = unit.slot;
        try {
          execute(u);
        } catch (...) {
          errors[u] = std::current_exception();
          stop.store(true);
        }
      },
      ro);
  for (std::size_t u = 0; u < plan.size(); ++u) {
    if (!errors[u]) continue;
    before_rethrow(u);
    std::rethrow_exception(errors[u]);
  }
  return report;
}

ChunkedRun run_chunked(std::size_t n_inputs, const ChunkedRunOptions& options,
                       const std::string& settings,
                       const std::function<std::string(const ChunkBounds&)>& content,
                       const std::function<std::string(const ChunkBounds&)>& execute,
                       ChunkStore* store) {
  if (store == nullptr && !options.shard.whole()) {
    throw UsageError("shard " + options.shard.to_string() +
                     " needs a store for its chunks (they are merged from there)");
  }
  const auto chunks = chunks_of(n_inputs, options.chunk_inputs);
  UnitPlan plan(0);
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    plan.add("inputs " + std::to_string(chunks[c].begin) + ".." + std::to_string(chunks[c].end) +
             " " + content_hash(settings + '\0' + build_id() + '\0' + content(chunks[c])));
  }
  const auto finished = store ? store->finished_keys() : std::unordered_set<std::string>{};
  std::vector<std::optional<std::string>> kept(chunks.size());  // without a store
  UnitRunOptions ro;
  ro.shard = options.shard;
  ro.n_threads = options.threads;
  ro.label = options.label;
  ro.progress = options.progress;
  const auto report = run_units_in_order(
      plan, finished, ro,
      [&](std::size_t c) {
        auto result = execute(chunks[c]);
        if (store) {
          store->put(plan[c].key, result);
        } else {
          kept[c] = std::move(result);
        }
      },
      [](std::size_t) {});
  ChunkedRun run;
  run.n_chunks = chunks.size();
  run.n_owned = report.n_owned;
  run.n_resumed = report.n_finished;
  run.n_executed = report.n_executed;
  // Read back in input order: fresh, resumed and merged chunks take one path.
  std::vector<std::string> results(chunks.size());
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    if (kept[c]) {
      results[c] = std::move(*kept[c]);
      continue;
    }
    auto text = store ? store->get(plan[c].key) : std::nullopt;
    if (!text) return run;  // another shard's chunk, not merged yet
    results[c] = std::move(*text);
  }
  run.results = std::move(results);
  run.complete = true;
  return run;
}

}  // namespace assay::core
