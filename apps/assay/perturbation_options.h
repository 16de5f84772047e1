// The options of the fairness commands that decide the perturbations: one vocabulary,
// registered once, accepted alike by `fair perturb`, `fair test`, `fair mitigate` and
// `fair serve`, and turned into the fairness module's options in one place, so that the same
// flags give the same perturbations in every command. (How the inputs are read:
// input_options.h.)
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fairness/perturbator_config.h"

namespace assay::cli {

// The perturbator's options as the command line gives them (fairness/perturbator_config.h).
using PerturbationOptions = fairness::PerturbatorConfig;

// Registers --attribute, --kg, --vectors, --vectors-format, --vectors-limit, --vectors-restrict,
// --min-cosine, --no-strict, --choice, --ngram-model, --fluency-ratio, --max-per-input,
// --all-occurrences, --broad-persons, --skip-check, --noun-modifiers, --no-analogy, --no-active,
// --no-coreference, --gender-lexicon, --first-names, --seed, --wordnet-dir and --tagger-dir on
// `cmd`.
void add_perturbation_options(CLI::App* cmd, PerturbationOptions& o);

// The options turned into the fairness module's (fairness::perturbator_settings).
using fairness::perturbator_settings;
using fairness::PerturbatorSettings;

}  // namespace assay::cli
