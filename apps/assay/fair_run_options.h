// What `fair test` and `fair mitigate` share: the model (model_options.h, through the answer
// cache with --cache), the inputs (input_options.h) and the perturbator, with their options
// registered once so both commands accept the same flags and, given the same ones, ask the
// model the same texts. `fair serve` shares the perturbator's part (open_perturbator) and the
// model's options.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/chunk_store.h"
#include "core/file_lock.h"
#include "fairness/fairness_input.h"
#include "fairness/fairness_run.h"
#include "gate_options.h"
#include "input_options.h"
#include "model_options.h"
#include "models/cached_model.h"
#include "models/model.h"
#include "perturbation_options.h"
#include "shard_options.h"

namespace assay::cli {

struct FairRunOptions {
  ModelOpenOptions model;
  std::size_t chunk = 64;
  std::size_t threads = 0;  // perturbing threads, 0 = every core
  InputFileOptions inputs;
  PerturbationOptions perturbation;
  GateOptions gate;  // --gate aeon: only the perturbations the gate keeps are asked
  bool quiet = false;
};

// Registers the model's options (add_model_open_options), the input options
// (add_input_options), --chunk, --threads, the perturbator's options (add_perturbation_options),
// the gate's (add_gate_options) and --quiet on `cmd` (not --out).
void add_fair_run_options(CLI::App* cmd, FairRunOptions& o);

// Everything opened: the model (a CachedModel when --cache is given; `cached` points at it),
// the inputs and the perturbator (fairness::LoadedPerturbator: its resources and itself).
struct FairRun : fairness::LoadedPerturbator {
  std::vector<fairness::InputRecord> inputs;
  // The position of each input's label among the model's (nullopt: the input has none).
  std::vector<std::optional<std::size_t>> gold;
  std::unique_ptr<models::Model> model;
  models::CachedModel* cached = nullptr;
  std::unique_ptr<fairness::PerturbationGate> gate;  // with --gate
};

// Throws the errors of the input options and the perturbator's (checked first, by
// text_input_options and perturbator_settings), the inputs, the model (open_model_under_test),
// the inputs' labels (a label the model does not know, after --label-map: a ParseError at its
// line, before the model is asked anything) and the resources.
FairRun open_fair_run(const FairRunOptions& o);

// The runner's options (fairness::fairness_test_options) from --chunk, --threads, --quiet, the
// shard and the gate's filter, the progress labelled `label`.
fairness::FairnessTestOptions runner_options(const FairRunOptions& o, const FairRun& run,
                                             const core::Shard& shard, std::string label);

// Where the run's finished chunks are kept: `open`'s tables (fairness::open_fair_test_store,
// open_fair_mitigate_store) in the answer cache's file, locked, with the --merge stores merged
// in first; no store without --cache.
struct FairRunStore {
  std::unique_ptr<core::ChunkStore> store;
  core::FileLock lock;
};
FairRunStore open_fair_run_store(const FairRunOptions& o, const ShardOptions& sharding,
                                 std::unique_ptr<core::ChunkStore> (*open)(const std::string&));

// "answers: H from CACHE, Q asked of the model" on stderr, with --cache and unless --quiet.
void report_answers(const FairRunOptions& o, const FairRun& run);

// The run's reuse key (fairness::fair_run_key): this program's version, the perturbator's
// options and resources and the gate's settings.
std::string fair_run_settings(const FairRunOptions& o, const FairRun& run);

// The perturbator and, with --gate, the gate (fairness::load_gated_perturbator) into `run`,
// nothing else. Throws the errors of the resources, of fairness::Perturbator and of the gate.
void open_perturbator(PerturbatorSettings settings, const GateOptions& gate, FairRun& run);

}  // namespace assay::cli
