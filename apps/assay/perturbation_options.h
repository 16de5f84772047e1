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

#include "fairness/perturbator.h"
#include "fairness/perturbator_resources.h"
#include "fairness/sensitive_attribute.h"

namespace assay::cli {

// The perturbator's options as the command line gives them.
struct PerturbationOptions {
  std::string attribute = "gender";
  // --kg, --vectors, --vectors-format, --vectors-limit, --ngram-model, --gender-lexicon,
  // --first-names, --wordnet-dir, --tagger-dir.
  fairness::ResourceOptions resources;
  std::string choice = "mutual";
  double fluency_ratio = 0.0;
  std::size_t max_per_input = 0;
  double min_cosine = 0.7;
  std::size_t vectors_restrict = 0;
  bool all_occurrences = false;
  bool broad_persons = false;
  bool noun_modifiers = false;
  bool no_strict = false, no_analogy = false, no_active = false;
  bool no_coreference = false;
  std::uint64_t seed = 0;
};

// Registers --attribute, --kg, --vectors, --vectors-format, --vectors-limit, --vectors-restrict,
// --min-cosine, --no-strict, --choice, --ngram-model, --fluency-ratio, --max-per-input,
// --all-occurrences, --broad-persons, --noun-modifiers, --no-analogy, --no-active,
// --no-coreference, --gender-lexicon, --first-names, --seed, --wordnet-dir and --tagger-dir on
// `cmd`.
void add_perturbation_options(CLI::App* cmd, PerturbationOptions& o);

// What fairness::Perturbator and fairness::PerturbatorResources::load are built from.
struct PerturbatorSettings {
  fairness::SensitiveAttribute attribute;
  fairness::PerturbatorOptions perturbator;
  fairness::ResourceOptions resources;
};

// The options turned into the fairness module's (the attribute read). Throws core::UsageError
// for an unknown --choice, and the errors of the attribute (an unknown name; a bad file at
// file:line).
PerturbatorSettings perturbator_settings(const PerturbationOptions& o);

}  // namespace assay::cli
