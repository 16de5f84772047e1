// What every fairness run loads (`fair perturb`, `fair test`, `fair mitigate`, `fair serve` and
// the Python module alike): the perturbator from its config, and the reuse key of a chunked run
// (fair_run_request.h) — everything besides the model and the texts that decides what a chunk
// finds, part of every chunk's key, so a finished chunk is reused only under the same settings.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

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

// The reuse key: `program` ("assay VERSION"), the attribute (a file by its content), every
// option of `perturbator` (as it took them from `config`), the resources of `config` (a dump
// or vector file by path, size and modification time, a lexicon by content) and
// `filter_settings` (what of the filter decides the results: "" without one).
std::string fair_run_key(std::string_view program, const PerturbatorConfig& config,
                         const Perturbator& perturbator, const std::string& filter_settings);

}  // namespace assay::fairness
