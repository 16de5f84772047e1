#include "fairness/perturbator_option_table.h"

#include <array>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "core/error.h"

namespace assay::fairness {
namespace {

using C = PerturbatorConfig;

// Field accessors (captureless lambdas, so they convert to the field pointers).
#define ASSAY_FIELD(Kind, expr)                 \
  Kind {                                        \
    +[](C& c) -> Kind::type& { return c.expr; } \
  }

const std::array<PerturbatorOption, 26> kOptions{{
    {.flag = "attribute",
     .keyword = "attribute",
     .field = ASSAY_FIELD(TextField, attribute),
     .help = "gender (built in), religion, sexual-orientation, race, nationality, age, or an "
             "attribute FILE (docs/fairness.md)"},
    {.flag = "kg",
     .keyword = "kg",
     .field = ASSAY_FIELD(TextField, resources.kg),
     .help = "wordnet or conceptnet:DUMP (.csv / .csv.gz)"},
    {.flag = "vectors",
     .keyword = "vectors",
     .field = ASSAY_FIELD(TextField, resources.vectors),
     .help = "Word vectors for AnalogyMutate (Algorithm 3); without: the knowledge graph",
     .hide_default = true},
    {.flag = "vectors-format",
     .keyword = "vectors_format",
     .field = ASSAY_FIELD(TextField, resources.vectors_format),
     .help = "word2vec, word2vec-bin, glove or fasttext",
     .needs_vectors = true},
    {.flag = "vectors-limit",
     .keyword = "vectors_limit",
     .field = ASSAY_FIELD(CountField, resources.vectors_limit),
     .help = "Read only the first N vectors (0 = all)",
     .min = 0,
     .max = 1e12,
     .needs_vectors = true},
    {.flag = "vectors-restrict",
     .keyword = "vectors_restrict",
     .field = ASSAY_FIELD(CountField, vectors_restrict),
     .help = "Search analogies among the first N vectors (0 = all)",
     .min = 0,
     .max = 1e9,
     .needs_vectors = true},
    {.flag = "min-cosine",
     .keyword = "min_cosine",
     .field = ASSAY_FIELD(RealField, min_cosine),
     .help = "Analogy acceptance threshold",
     .min = -1,
     .max = 1,
     .needs_vectors = true},
    {.flag = "no-strict",
     .keyword = "strict",
     .field = ASSAY_FIELD(FlagField, no_strict),
     .help = "Keep vector analogies the knowledge graph does not confirm",
     .negated = true,
     .needs_vectors = true},
    {.flag = "choice",
     .keyword = "choice",
     .field = ASSAY_FIELD(TextField, choice),
     .help = "Counterpart choice among several: mutual, frequency, context or rank"},
    {.flag = "ngram-model",
     .keyword = "ngram_model",
     .field = ASSAY_FIELD(TextField, resources.ngram_model),
     .help = "Language model for fluency: cmu (the CMU trigram), arpa:FILE or sphinx:FILE"},
    {.flag = "fluency-ratio",
     .keyword = "fluency_ratio",
     .field = ASSAY_FIELD(RealField, fluency_ratio),
     .help = "Keep a perturbation when its fluency >= T x the original's (0 = keep all)",
     .min = 0,
     .max = std::numeric_limits<double>::max()},
    {.flag = "max-per-input",
     .keyword = "max_per_input",
     .field = ASSAY_FIELD(CountField, max_per_input),
     .help = "Keep at most K perturbations per input, the most fluent (0 = all)",
     .min = 0,
     .max = 1e9},
    {.flag = "max-perturbations",
     .keyword = "max_perturbations",
     .field = ASSAY_FIELD(CountField, max_perturbations),
     .help = "Build at most N perturbations of one text, so its cost stays linear in its "
             "length; a record that reached it says \"limit_reached\" (0 = no limit)",
     .min = 0,
     .max = 1e9},
    {.flag = "all-occurrences",
     .keyword = "all_occurrences",
     .field = ASSAY_FIELD(FlagField, all_occurrences),
     .help = "Replace every occurrence of the noun in one perturbation"},
    {.flag = "broad-persons",
     .keyword = "broad_persons",
     .field = ASSAY_FIELD(FlagField, broad_persons),
     .help = "Every noun the person classifier accepts, rare person senses included, wherever "
             "it stands (titles, names and mass uses too)"},
    {.flag = "skip-check",
     .keyword = "skip_checks",
     .field = ASSAY_FIELD(ListField, skip_checks),
     .help = "Switch off a check of the person before insertion or name swap, by name (repeat "
             "or comma-separate; docs/fairness.md, \"Checks\")",
     .hide_default = true},
    {.flag = "noun-modifiers",
     .keyword = "noun_modifiers",
     .field = ASSAY_FIELD(FlagField, noun_modifiers),
     .help = "ActiveMutate also nouns that only modify the next noun (\"a male teen movie\")"},
    {.flag = "no-analogy",
     .keyword = "analogy",
     .field = ASSAY_FIELD(FlagField, no_analogy),
     .help = "Only ActiveMutate",
     .negated = true},
    {.flag = "no-active",
     .keyword = "active",
     .field = ASSAY_FIELD(FlagField, no_active),
     .help = "Only AnalogyMutate",
     .negated = true},
    {.flag = "no-coreference",
     .keyword = "coreference",
     .field = ASSAY_FIELD(FlagField, no_coreference),
     .help = "Gender: change the noun alone, not its pronouns and other mentions",
     .negated = true},
    {.flag = "gender-lexicon",
     .keyword = "gender_lexicon",
     .field = ASSAY_FIELD(TextField, resources.gender_lexicon),
     .help = "Gender: the counterpart lexicon consulted first (none: the graph alone)",
     .none_is_word = true,
     .default_name = "the shipped data/lexicon/gender-pairs.tsv"},
    {.flag = "first-names",
     .keyword = "first_names",
     .field = ASSAY_FIELD(TextField, resources.first_names),
     .help = "Gender: the first names swapped (none: names are left alone)",
     .none_is_word = true,
     .default_name = "the shipped data/names/first-names.tsv"},
    {.flag = "name-groups",
     .keyword = "name_groups",
     .field = ASSAY_FIELD(TextField, resources.name_groups),
     .help = "Gender: an attribute (name or file) whose 'names' rows a swap keeps within their "
             "group, Jamal → Lakisha (none: every name from the common pool)",
     .none_is_word = true,
     .default_name = "race"},
    {.flag = "seed",
     .keyword = "seed",
     .field = ASSAY_FIELD(SeedField, seed),
     .help = "Gender: seed choosing each first name's replacement",
     .min = 0,
     .max = 1e15},
    {.flag = "wordnet-dir",
     .keyword = "wordnet_dir",
     .field = ASSAY_FIELD(TextField, resources.wordnet_dir),
     .help = "WordNet 3.0 dict directory"},
    {.flag = "tagger-dir",
     .keyword = "tagger_dir",
     .field = ASSAY_FIELD(TextField, resources.tagger_dir),
     .help = "Lingua::EN::Tagger tables"},
}};

#undef ASSAY_FIELD

}  // namespace

std::span<const PerturbatorOption> perturbator_option_table() {
  return kOptions;
}

const PerturbatorOption* find_perturbator_flag(std::string_view flag) {
  for (const auto& o : kOptions) {
    if (o.flag == flag) return &o;
  }
  return nullptr;
}

const PerturbatorOption* find_perturbator_keyword(std::string_view keyword) {
  for (const auto& o : kOptions) {
    if (o.keyword == keyword) return &o;
  }
  return nullptr;
}

std::string default_text(const PerturbatorOption& option) {
  if (!option.default_name.empty()) return std::string(option.default_name);
  C defaults;
  return std::visit(
      [&](auto field) -> std::string {
        const auto& value = field(defaults);
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return value;
        } else if constexpr (std::is_same_v<T, bool>) {
          return (option.negated ? !value : value) ? "true" : "false";
        } else if constexpr (std::is_same_v<T, double>) {
          char s[32];
          std::snprintf(s, sizeof s, "%g", value);
          return s;
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          std::string s;
          for (const auto& v : value) s += (s.empty() ? "" : ",") + v;
          return s;
        } else {
          return std::to_string(value);
        }
      },
      option.field);
}

void check_perturbator_config(const PerturbatorConfig& config) {
  if (config.resources.vectors.empty()) {
    C defaults;
    C given = config;  // a copy, read through the fields' accessors
    for (const auto& o : kOptions) {
      if (!o.needs_vectors) continue;
      const bool differs =
          std::visit([&](auto field) { return !(field(given) == field(defaults)); }, o.field);
      if (differs) {
        throw core::UsageError(std::string(o.keyword) +
                               " is a setting of the word vectors: it needs vectors");
      }
    }
  }
  if (config.no_analogy && config.no_active) {
    throw core::UsageError("analogy and active both switched off leave nothing to perturb");
  }
}

}  // namespace assay::fairness
