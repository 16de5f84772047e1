// The perturbator's options as plain values — what the command line's flags (apps/assay/
// perturbation_options.h) and the Python module's keyword arguments both fill — turned into
// the fairness module's options in one place, so that the same values give the same
// perturbations whichever way they were given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fairness/perturbator.h"
#include "fairness/perturbator_resources.h"
#include "fairness/sensitive_attribute.h"

namespace assay::fairness {

struct PerturbatorConfig {
  std::string attribute = "gender";
  // kg, vectors, vectors_format, vectors_limit, ngram_model, gender_lexicon, first_names,
  // name_groups (an attribute name or file, "none"),
  // wordnet_dir, tagger_dir.
  ResourceOptions resources;
  std::string choice = "mutual";
  double fluency_ratio = 0.0;
  std::size_t max_per_input = 0;
  std::size_t max_perturbations = PerturbatorOptions{}.max_perturbations;
  double min_cosine = 0.7;
  std::size_t vectors_restrict = 0;
  bool all_occurrences = false;
  bool broad_persons = false;
  bool noun_modifiers = false;
  bool no_strict = false, no_analogy = false, no_active = false;
  bool no_coreference = false;
  // Checks switched off by name (referent_checks.h), e.g. "bare-plural".
  std::vector<std::string> skip_checks;
  std::uint64_t seed = 0;
};

// What fairness::Perturbator and fairness::PerturbatorResources::load are built from.
struct PerturbatorSettings {
  SensitiveAttribute attribute;
  PerturbatorOptions perturbator;
  ResourceOptions resources;
};

// The config turned into the fairness module's options (the attribute read; a gender lexicon
// or first-name list named "none" is none). Throws the errors of check_perturbator_config
// (perturbator_option_table.h), core::UsageError for an unknown choice or check, and the errors
// of the attribute (an unknown name; a bad file at file:line).
PerturbatorSettings perturbator_settings(const PerturbatorConfig& o);

}  // namespace assay::fairness
