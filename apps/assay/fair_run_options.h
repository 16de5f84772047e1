// What `fair test` and `fair mitigate` share: the model (through the answer cache with
// --cache), the inputs and the perturbator, with their options registered once so both
// commands accept the same flags and, given the same ones, ask the model the same texts.
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
#include "models/cached_model.h"
#include "models/model.h"
#include "models/model_spec.h"

namespace assay::cli {

struct FairRunOptions {
  std::string model, input, cache;
  std::optional<std::uint64_t> budget;
  std::size_t batch = 64;
  std::size_t chunk = 64;
  std::size_t threads = 0;  // perturbing threads, 0 = every core
  std::string attribute = "gender";
  std::string format = "lines";
  std::string text_column;
  fairness::ResourceOptions resources;
  std::string choice = "mutual";
  double fluency_ratio = 0.0;
  std::size_t max_per_input = 0;
  bool all_occurrences = false;
  bool quiet = false;
};

// Registers --model, --input, --cache, --budget, --batch, --chunk, --threads and the perturbator's
// options (not --out) on `cmd`.
void add_fair_run_options(CLI::App* cmd, FairRunOptions& o);

// Registers only the perturbator's options (--attribute, --kg, --vectors, --vectors-format,
// --choice, --fluency-ratio, --max-per-input, --all-occurrences) and --quiet: what a command
// that perturbs texts it did not read from --input (fair serve) shares with the others.
void add_perturbation_options(CLI::App* cmd, FairRunOptions& o);

// Registers the adapter options of `model predict` that a long-running command needs for an
// http: or cmd: model: --labels (comma-separated, into `labels`), --header, --body-template,
// --scores-pointer, --label-map, --retries, --ca-file, --restarts.
void add_model_adapter_options(CLI::App* cmd, models::ModelOptions& o, std::string& labels);

// Everything opened: the model (a CachedModel when --cache is given; `cached` points at it),
// the inputs and the perturbator (which refers to `resources`; all stay put when moved).
struct FairRun {
  std::vector<fairness::InputRecord> inputs;
  std::unique_ptr<models::Model> model;
  models::CachedModel* cached = nullptr;
  std::unique_ptr<fairness::PerturbatorResources> resources;
  std::unique_ptr<fairness::Perturbator> perturbator;
};

// Throws core::UsageError for --budget without --cache, and the errors of the inputs, the
// attribute, the model and the resources.
FairRun open_fair_run(const FairRunOptions& o);

// Everything besides the model and the texts that decides what `fair test` finds for a chunk
// of inputs: the program version, the attribute (a file by its content), the perturbator's
// options and resources (a dump or vector file by path, size and modification time). Part of
// every chunk's key, so a finished chunk is reused only under the same settings.
std::string fair_run_settings(const FairRunOptions& o, const FairRun& run);

// The perturbator of the options (resources loaded, attribute read) into `run`, nothing else.
// Throws the errors of the attribute, the choice and the resources.
void open_perturbator(const FairRunOptions& o, FairRun& run);

}  // namespace assay::cli
