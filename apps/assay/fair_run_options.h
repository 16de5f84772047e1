// What `fair test` and `fair mitigate` share: the model (model_options.h, through the answer
// cache with --cache), the inputs (input_options.h) and the perturbator, with their options
// registered once so both commands accept the same flags and, given the same ones, ask the
// model the same texts. `fair serve` shares the perturbator's part (open_perturbator) and the
// model's options.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fairness/fairness_input.h"
#include "fairness/perturbator.h"
#include "fairness/perturbator_resources.h"
#include "gate_options.h"
#include "input_options.h"
#include "model_options.h"
#include "models/cached_model.h"
#include "models/model.h"
#include "perturbation_options.h"

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
// the inputs and the perturbator (which refers to `resources`; all stay put when moved).
struct FairRun {
  std::vector<fairness::InputRecord> inputs;
  // The position of each input's label among the model's (nullopt: the input has none).
  std::vector<std::optional<std::size_t>> gold;
  std::unique_ptr<models::Model> model;
  models::CachedModel* cached = nullptr;
  std::unique_ptr<fairness::PerturbatorResources> resources;
  std::unique_ptr<fairness::Perturbator> perturbator;
  std::unique_ptr<FairGate> gate;  // with --gate (sharing the perturbator's trigram offline)
};

// Throws the errors of the input options and the perturbator's (checked first, by
// text_input_options and perturbator_settings), the inputs, the model (open_model_under_test),
// the inputs' labels (a label the model does not know, after --label-map: a ParseError at its
// line, before the model is asked anything) and the resources.
FairRun open_fair_run(const FairRunOptions& o);

// Everything besides the model and the texts that decides what `fair test` finds for a chunk
// of inputs: the program version, the attribute (a file by its content), every option of the
// perturbator (as run.perturbator took them) and its resources (a dump or vector file by path,
// size and modification time). Part of every chunk's key, so a finished chunk is reused only
// under the same settings.
std::string fair_run_settings(const FairRunOptions& o, const FairRun& run);

// The perturbator of `settings` (resources loaded) into `run`, nothing else. Throws the errors
// of the resources and of fairness::Perturbator.
void open_perturbator(PerturbatorSettings settings, FairRun& run);
// The same from the options (perturbator_settings first: its errors, then those above).
void open_perturbator(const PerturbationOptions& o, FairRun& run);
// The perturbator and, with --gate, the gate (sharing the perturbator's CMU trigram offline).
void open_perturbator(PerturbatorSettings settings, const GateOptions& gate,
                      const std::string& wordnet_dir, FairRun& run);

}  // namespace assay::cli
