#include "fairness/perturbator_config.h"

#include <utility>

#include "core/error.h"
#include "fairness/perturbator_option_table.h"
#include "fairness/referent_checks.h"

namespace assay::fairness {

PerturbatorSettings perturbator_settings(const PerturbatorConfig& o) {
  check_perturbator_config(o);
  PerturbatorOptions po;
  po.choice = parse_counterpart_choice(o.choice);
  po.fluency_ratio = o.fluency_ratio;
  po.max_per_input = o.max_per_input;
  po.max_perturbations = o.max_perturbations;
  po.min_cosine = o.min_cosine;
  po.vectors_restrict = o.vectors_restrict;
  po.all_occurrences = o.all_occurrences;
  po.narrow_persons = !o.broad_persons;
  po.active_noun_modifiers = o.noun_modifiers;
  po.strict = !o.no_strict;
  po.analogy = !o.no_analogy;
  po.active = !o.no_active;
  po.coreference = !o.no_coreference;
  po.seed = o.seed;
  for (const auto& name : o.skip_checks) {
    if (!find_check(name)) {
      std::string known;
      for (const auto list : {insertion_checks(), gender_swap_checks(), name_checks()}) {
        for (const auto& c : list) known += (known.empty() ? "" : ", ") + std::string(c.name);
      }
      throw core::UsageError("unknown check '" + name + "' (the checks are " + known + ")");
    }
    po.disabled_checks.insert(name);
  }
  auto resources = o.resources;
  if (resources.gender_lexicon == "none") resources.gender_lexicon.clear();
  if (resources.first_names == "none") resources.first_names.clear();
  if (resources.name_groups == "none" || resources.first_names.empty())
    resources.name_groups.clear();
  else
    resources.name_groups = attribute_file_path(resources.name_groups, default_attribute_dir());
  return {load_attribute(o.attribute, default_attribute_dir()), po, std::move(resources)};
}

}  // namespace assay::fairness
