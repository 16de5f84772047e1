// What `fair test` and `fair mitigate` share: the model (model_options.h, through the answer
// cache with --cache), the inputs (input_options.h), the perturbator and the gate, with their
// options registered once so both commands accept the same flags and, given the same ones, ask
// the model the same texts. The run itself is the library's (fairness/fair_run_request.h):
// these flags only fill its request and the stderr lines report it.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fairness/fair_run_request.h"
#include "gate_options.h"
#include "input_options.h"
#include "model_options.h"
#include "perturbation_options.h"
#include "shard_options.h"

namespace assay::cli {

struct FairRunOptions {
  ModelOpenOptions model;
  std::size_t chunk = fairness::FairRunRequest{}.chunk;
  std::size_t threads = fairness::FairRunRequest{}.threads;  // perturbing threads, 0 = all
  InputFileOptions inputs;
  PerturbationOptions perturbation;
  GateOptions gate;  // --gate aeon: only the perturbations the gate keeps are asked
  ShardOptions sharding;
  std::string out;
  bool quiet = false;
};

// Registers the model's options (add_model_open_options), the input options
// (add_input_options), --chunk, --threads, the perturbator's options (add_perturbation_options),
// the gate's (add_gate_options), --shard and --merge and --quiet on `cmd` (not --out).
void add_fair_run_options(CLI::App* cmd, FairRunOptions& o);

// The run opened, and the position of each input's label among the model's (nullopt: the input
// has none).
struct OpenedFairRun {
  std::unique_ptr<fairness::FairRun> run;
  std::vector<std::optional<std::size_t>> gold;
};

// The request of the flags, checked before anything is read (the input options', the model's,
// the perturbator's and the gate's errors); then the inputs, the model under test
// (open_model_under_test), the inputs' labels (a label the model does not know, after
// --label-map: a ParseError at its line, before the model is asked anything) and the
// perturbator and gate (fairness::FairRun). When the run's chunks are done it says on stderr
// (unless --quiet) what was merged and what ran or was resumed (for a shard, how the merging run
// writes --out).
OpenedFairRun open_fair_run(const FairRunOptions& o);

// "answers: H from CACHE, Q asked of the model" on stderr, with --cache and unless --quiet.
void report_answers(const FairRunOptions& o, const fairness::FairRun& run);

// What the gate did, on stderr (report_gate), with a gate.
void report_fair_run_gate(const FairRunOptions& o, const fairness::FairRun& run,
                          const fairness::FairRunProgress& progress);

}  // namespace assay::cli
