// Scoring test cases in chunks (core/chunked_run.h): `aeon score` cuts its pairs into chunks
// of consecutive cases, scores each chunk (TestCaseScorer::score_all on the scorer's threads)
// into its output lines, and keeps each finished chunk in a core::ChunkStore, so an
// interrupted run resumes at the first missing chunk, a shard (--shard I/N) scores only its
// share into its own store, and the stores of every shard merge into the output of one run:
// the lines are assembled in input order, the same bytes whatever the sharding or how often
// the run was resumed.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"
#include "core/chunk_store.h"
#include "core/chunked_run.h"

namespace assay::aeon {

enum class ScoreFormat { kJsonl, kCsv };

// The CSV header line (with its newline) of ScoreFormat::kCsv.
const std::string& score_csv_header();

// The output lines (each with its newline) of cases [begin, end) scored with `threads`
// threads: one JSON line (score_record) or CSV row each.
std::string score_lines(TestCaseScorer& scorer, const std::vector<TestCase>& cases,
                        std::size_t begin, std::size_t end, ScoreFormat format, int threads);

// The store of `aeon score`'s chunks in FILE (throws as core::ChunkStore).
std::unique_ptr<core::ChunkStore> open_score_store(const std::string& path);

struct ScoreRunOptions {
  std::size_t chunk_inputs = 256;  // cases per chunk
  int threads = 1;                 // the scorer's threads (chunks run one at a time)
  core::Shard shard;
  core::ProgressOptions progress;
};

// Scores the chunks this shard owns that `store` lacks (nullptr: none kept; options.shard must
// be whole), recording each as it finishes; when complete, results holds every chunk's lines
// in input order. `settings`: everything besides the cases that decides a chunk's lines (the
// program version, the scorer's options); the scorer's backends and the format are added here.
core::ChunkedRun score_test_cases(TestCaseScorer& scorer, const std::vector<TestCase>& cases,
                                  ScoreFormat format, const ScoreRunOptions& options,
                                  const std::string& settings, core::ChunkStore* store);

}  // namespace assay::aeon
