#include "perturbation_options.h"

#include "option_checks.h"

namespace assay::cli {

void add_perturbation_options(CLI::App* cmd, PerturbationOptions& o) {
  cmd->add_option("--attribute", o.attribute,
                  "gender (built in), religion, sexual-orientation, race, nationality, age, or "
                  "an attribute FILE (docs/fairness.md)")
      ->capture_default_str();
  cmd->add_option("--kg", o.resources.kg, "wordnet or conceptnet:DUMP (.csv / .csv.gz)")
      ->capture_default_str();
  auto* vectors =
      cmd->add_option("--vectors", o.resources.vectors,
                      "Word vectors for AnalogyMutate (Algorithm 3); without: the knowledge graph");
  // The vector settings mean nothing without vectors: each needs --vectors.
  cmd->add_option("--vectors-format", o.resources.vectors_format,
                  "word2vec, word2vec-bin, glove or fasttext")
      ->capture_default_str()
      ->needs(vectors);
  add_count(cmd, "--vectors-limit", o.resources.vectors_limit,
            "Read only the first N vectors (0 = all)", {.min = 0, .max = 1'000'000'000'000})
      ->needs(vectors);
  add_count(cmd, "--vectors-restrict", o.vectors_restrict,
            "Search analogies among the first N vectors (0 = all)",
            {.min = 0, .max = 1'000'000'000})
      ->needs(vectors);
  add_finite(cmd, "--min-cosine", o.min_cosine, "Analogy acceptance threshold",
             {.min = -1, .max = 1})
      ->capture_default_str()
      ->needs(vectors);
  cmd->add_flag("--no-strict", o.no_strict,
                "Keep vector analogies the knowledge graph does not confirm")
      ->needs(vectors);
  cmd->add_option("--choice", o.choice,
                  "Counterpart choice among several: mutual, frequency, context or rank")
      ->capture_default_str();
  cmd->add_option("--ngram-model", o.resources.ngram_model,
                  "Language model for fluency: cmu (the CMU trigram), arpa:FILE or sphinx:FILE")
      ->capture_default_str();
  add_finite(cmd, "--fluency-ratio", o.fluency_ratio,
             "Keep a perturbation when its fluency >= T x the original's (0 = keep all)",
             {.min = 0})
      ->capture_default_str();
  add_count(cmd, "--max-per-input", o.max_per_input,
            "Keep at most K perturbations per input, the most fluent (0 = all)",
            {.min = 0, .max = 1'000'000'000});
  add_count(cmd, "--max-perturbations", o.max_perturbations,
            "Build at most N perturbations of one text, so its cost stays linear in its length; "
            "a record that reached it says \"limit_reached\" (0 = no limit)",
            {.min = 0, .max = 1'000'000'000})
      ->capture_default_str();
  cmd->add_flag("--all-occurrences", o.all_occurrences,
                "Replace every occurrence of the noun in one perturbation");
  cmd->add_flag("--broad-persons", o.broad_persons,
                "Every noun the person classifier accepts, rare person senses included, "
                "wherever it stands (titles, names and mass uses too)");
  cmd->add_option("--skip-check", o.skip_checks,
                  "Switch off a check of the person before insertion or name swap, by name "
                  "(repeat or comma-separate; docs/fairness.md, \"Checks\")")
      ->delimiter(',');
  cmd->add_flag("--noun-modifiers", o.noun_modifiers,
                "ActiveMutate also nouns that only modify the next noun (\"a male teen movie\")");
  auto* no_analogy = cmd->add_flag("--no-analogy", o.no_analogy, "Only ActiveMutate");
  // Both would leave nothing to perturb.
  no_analogy->excludes(cmd->add_flag("--no-active", o.no_active, "Only AnalogyMutate"));
  cmd->add_flag("--no-coreference", o.no_coreference,
                "Gender: change the noun alone, not its pronouns and other mentions");
  cmd->add_option("--gender-lexicon", o.resources.gender_lexicon,
                  "Gender: the counterpart lexicon consulted first (none: the graph alone)")
      ->capture_default_str();
  cmd->add_option("--first-names", o.resources.first_names,
                  "Gender: the first names swapped (none: names are left alone)")
      ->capture_default_str();
  cmd->add_option("--name-groups", o.resources.name_groups,
                  "Gender: an attribute (name or file) whose 'names' rows a swap keeps within "
                  "their group, Jamal → Lakisha (none: every name from the common pool)")
      ->capture_default_str();
  add_count(cmd, "--seed", o.seed, "Gender: seed choosing each first name's replacement",
            {.min = 0, .max = 1'000'000'000'000'000})
      ->capture_default_str();
  cmd->add_option("--wordnet-dir", o.resources.wordnet_dir, "WordNet 3.0 dict directory")
      ->capture_default_str();
  cmd->add_option("--tagger-dir", o.resources.tagger_dir, "Lingua::EN::Tagger tables")
      ->capture_default_str();
}

}  // namespace assay::cli
