// A fairness run set up (`fair test` and `fair mitigate`; `fair perturb`, `fair serve` and the
// Python module load their perturbator the same way): the perturbator loaded from its config,
// how the run's chunks of inputs are cut and run, and the reuse key — everything besides the
// model and the texts that decides what a chunk finds, part of every chunk's key, so a finished
// chunk is reused only under the same settings.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/shard.h"
#include "fairness/fairness_test_runner.h"
#include "fairness/perturbator.h"
#include "fairness/perturbator_config.h"
#include "fairness/perturbator_resources.h"

namespace assay::fairness {

// The perturbator and the resources it refers to (both stay put when moved).
struct LoadedPerturbator {
  std::unique_ptr<PerturbatorResources> resources;
  std::unique_ptr<Perturbator> perturbator;
};

// Loads the resources of `settings` and builds the perturbator. Throws the errors of
// PerturbatorResources::load and of Perturbator.
LoadedPerturbator load_perturbator(PerturbatorSettings settings);

// How a run's chunks of inputs are run.
struct FairRunConfig {
  std::size_t chunk = 64;   // inputs perturbed per model round
  std::size_t threads = 0;  // perturbing threads (0 = every core); outputs do not depend on it
  core::Shard shard;        // only this shard's chunks
  bool quiet = false;       // no progress on stderr
};

// The runner's options (fairness_test_runner.h) for `config`, its progress labelled `label`
// ("fair test", "fair mitigate"), each input's perturbations passed through `filter` (none
// when empty).
FairnessTestOptions fairness_test_options(const FairRunConfig& config, std::string label,
                                          PerturbationFilter filter);

// The reuse key: `program` ("assay VERSION"), the attribute (a file by its content), every
// option of `perturbator` (as it took them from `config`), the resources of `config` (a dump
// or vector file by path, size and modification time, a lexicon by content) and
// `filter_settings` (what of the filter decides the results: "" without one).
std::string fair_run_key(std::string_view program, const PerturbatorConfig& config,
                         const Perturbator& perturbator, const std::string& filter_settings);

}  // namespace assay::fairness
