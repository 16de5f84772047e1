// `aeon score` as one library run, for the command and assay.aeon.score alike: the request
// holds the scorer's settings by the names both front ends take ("reference", "pooler",
// "enumerate"; the defaults written once, here), the chunked run's settings and the output
// format. scorer_options turns the names into the scorer's options; run_score_request scores
// the pairs in chunks kept in a store (resumed, sharded, merged: score_run.h) and returns the
// output lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aeon/score_run.h"
#include "aeon/test_case.h"
#include "aeon/test_case_scorer.h"
#include "core/progress.h"
#include "core/shard.h"

namespace assay::aeon {

struct ScoreRequest {
  std::string model_dir, embedding_dir;  // checkpoints; both empty: the offline backends
  std::string ngram_model = "cmu";       // offline SynEval: cmu, sphinx:FILE or arpa:FILE
  std::string vectors;                   // offline SemEval's word vectors ("" WordNet only)
  std::string vectors_format = TestCaseScorerOptions{}.vectors_format;
  std::string wordnet_dir = TestCaseScorerOptions{}.wordnet_dir;
  std::string variant = "reference";         // SemEval: reference (the code) or paper
  std::string pooling = "auto";              // sentence vector: auto, pooler or cls
  std::string ngram_normaliser = "backoff";  // offline SynEval: backoff or enumerate
  bool keep_markers = false;                 // keep [[...]] mutation markers
  int threads = 2;                           // scorer threads (offline: pairs in parallel)
  std::string format = "jsonl";              // jsonl or csv
  std::size_t chunk = 256;                   // pairs per chunk
  std::string store;                         // the chunks' SQLite file ("" kept in memory)
  core::Shard shard;                         // only this shard's chunks (needs a store)
  std::vector<std::string> merge;            // other shards' stores, merged in first
  core::ProgressOptions progress;
};

// The scorer's options of the request. Throws core::UsageError for an unknown variant,
// pooling or normaliser, vectors beside checkpoints, threads < 1, a chunk of 0, a format other
// than jsonl or csv, and a shard or merge without a store.
TestCaseScorerOptions scorer_options(const ScoreRequest& request);

// The format of request.format (checked by scorer_options).
ScoreFormat score_format(const ScoreRequest& request);

// Everything besides the pairs and the scorer's backends that decides a chunk's lines: this
// program's version and the scorer's settings.
std::string score_settings(const ScoreRequest& request);

struct ScoreOutcome {
  std::size_t n_owned = 0, n_executed = 0, n_resumed = 0, merged = 0;
  bool complete = false;  // every chunk finished: `lines` holds the output
  std::string store;      // the store's file ("" none)
  std::string lines;      // every case's line (with its newline), input order
  std::string semeval_backend, syneval_backend;  // what scored them
};

// Scores `cases` in chunks (score_test_cases) with the request's scorer, through its store
// (locked; the merged stores copied in first). Throws what the scorer and the store throw.
ScoreOutcome run_score_request(const ScoreRequest& request, const std::vector<TestCase>& cases);

}  // namespace assay::aeon
