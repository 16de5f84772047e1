// run_chunked: one code path for every engine that asks something about a list of inputs
// (`fair test`, `fair mitigate`, `aeon score`, `model predict`) and wants the run resumable and
// spread over processes. The inputs are cut into chunks of consecutive inputs; each chunk is a
// unit of the core runner (unit_runner.h): executed on options.threads threads, dealt to
// shards by its number (shard I of N runs the chunks c with c mod N == I), and recorded in a
// ChunkStore as it finishes, so an interrupted run (kill -9 included) resumes at the first
// missing chunk and never executes a finished one again.
//
// A chunk's key is "inputs B..E <hash>": its place and a content hash of `settings`
// (everything besides the inputs that decides its result: the model's identity, the options),
// of the code's build ID (build_id.h: a rebuilt assay, whose perturbator or scorer may have
// changed, computes every chunk anew; the model's answers stay in its answer cache) and of
// `content(chunk)` (the inputs' own bytes). A store therefore never serves a chunk of other
// inputs, settings or code, and the shards of one run, each with its own store, merge
// (ChunkStore::merge) into the store of the whole run.
//
// The results are read back in input order, fresh, resumed and merged chunks by one path, so
// whatever assembles the outputs from them writes the same bytes whatever the thread count, the
// sharding, or how often the run was resumed.
//
// How a command uses it:
//   shard I of N:  run_chunked(... options.shard = I/N, store of this shard) -> !complete
//   merge:         store.merge(each shard's file); run_chunked(... whole) -> complete, nothing
//                  executed; write the outputs from `results`.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/chunk_store.h"
#include "core/progress.h"
#include "core/shard.h"
#include "core/unit_plan.h"
#include "core/unit_runner.h"

namespace assay::core {

struct ChunkBounds {
  std::size_t begin = 0, end = 0;  // inputs [begin, end)
};

// [0, n) in chunks of `chunk_inputs` (at least 1) consecutive inputs.
std::vector<ChunkBounds> chunks_of(std::size_t n, std::size_t chunk_inputs);

struct ChunkedRunOptions {
  std::size_t chunk_inputs = 64;  // inputs per chunk
  std::size_t threads = 1;        // chunks executed at once (0 = every core)
  Shard shard;                    // only this shard's chunks; not whole needs a store
  ProgressOptions progress;
  std::string label = "chunks";  // progress label (counts chunks)
};

struct ChunkedRun {
  // Every chunk's result in input order; filled only when `complete` (every chunk finished:
  // executed now, or found in the store).
  std::vector<std::string> results;
  bool complete = false;
  std::size_t n_chunks = 0;    // chunks of the inputs
  std::size_t n_owned = 0;     // of them, this shard's
  std::size_t n_resumed = 0;   // of those, found finished in the store (resumed or merged)
  std::size_t n_executed = 0;  // executed by this call
};

// Executes the chunks of inputs [0, n_inputs) that this shard owns and `store` lacks, each by
// `execute(chunk)` (called concurrently from options.threads threads: it must be
// thread-safe), recording each result in the store as it finishes, then reads every chunk back
// in input order. Without a store (nullptr) the results are kept in memory and options.shard
// must be whole (core::UsageError otherwise). The first exception thrown by `execute` in input
// order is rethrown (after the chunks in flight finished; no chunk starts after it); every
// chunk recorded before it stays recorded.
ChunkedRun run_chunked(std::size_t n_inputs, const ChunkedRunOptions& options,
                       const std::string& settings,
                       const std::function<std::string(const ChunkBounds&)>& content,
                       const std::function<std::string(const ChunkBounds&)>& execute,
                       ChunkStore* store);

// The runner under run_chunked, for a plan whose unit slots are their plan positions: runs
// `execute(u)` for the owned, unfinished units; an error does not stop the units in flight, no
// unit starts after it, and the error of the first failing unit in plan order is rethrown
// (units are claimed in plan order, so every unit before it has run) after
// `before_rethrow(u)`.
UnitRunReport run_units_in_order(const UnitPlan& plan,
                                 const std::unordered_set<std::string>& finished,
                                 const UnitRunOptions& options,
                                 const std::function<void(std::size_t)>& execute,
                                 const std::function<void(std::size_t)>& before_rethrow);

}  // namespace assay::core
