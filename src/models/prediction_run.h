// `model predict` over many inputs, in chunks (core/chunked_run.h): the inputs are cut into
// chunks of --batch texts, each asked in one predict() call and turned into its JSON lines
// ({"text", "scores", "label"} and "gold" for a labelled input), and each finished chunk is kept
// in a core::ChunkStore (the answer cache's file), so an interrupted run resumes at the first
// missing chunk, a shard (--shard I/N) asks only its share into its own file, and the files of
// every shard merge into the output of one run (the lines in input order, byte for byte).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/chunk_store.h"
#include "core/chunked_run.h"
#include "models/model.h"
#include "models/text_input.h"

namespace assay::models {

// The store of `model predict`'s chunks in FILE (throws as core::ChunkStore).
std::unique_ptr<core::ChunkStore> open_prediction_store(const std::string& path);

struct PredictionRunOptions {
  std::size_t batch = 64;  // texts per chunk and per predict() call
  core::Shard shard;
  core::ProgressOptions progress;
  // Where the answers are kept (--cache), named when the query budget runs out.
  std::string cache;
};

struct PredictionRun {
  std::string lines;          // every input's JSON line in input order (when complete)
  std::size_t n_correct = 0;  // labelled inputs whose label is their gold label (when complete)
  core::ChunkedRun chunks;    // its counts (results moved into `lines`)
};

// Asks `model` about the records this shard owns that `store` lacks (nullptr: none kept; the
// shard must be whole), chunk by chunk in input order. `gold`: per record, its label's position
// among the model's labels (nullopt: none). `settings`: the program version and whatever else
// besides the model's identity and the records decides a line. Errors: a ModelError at the
// record it names (or the chunk's lines), a BudgetExhausted that says how many inputs remain
// and how to continue; the chunks recorded before stay.
PredictionRun predict_records(Model& model, const std::vector<TextRecord>& records,
                              const std::vector<std::optional<std::size_t>>& gold,
                              const PredictionRunOptions& options, const std::string& settings,
                              core::ChunkStore* store);

}  // namespace assay::models
