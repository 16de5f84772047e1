// The perturbator's options as one table: for each, its name on the command line
// ("--min-cosine") and in Python ("min_cosine"), where PerturbatorConfig holds it (its default is
// that field's in a default PerturbatorConfig), its kind, its range, what it needs and its help.
// The command line registers its flags from it (apps/assay/perturbation_options.cc), the Python
// module parses its keywords with it (python/perturbation_kwargs.cc), and a test checks the
// options table of docs/fairness.md against it, so a default or range lives here only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fairness/perturbator_config.h"

namespace assay::fairness {

// Where an option's value lives in a config, and its kind (`Kind` tells two kinds of one C++
// type apart).
template <class T, int Kind>
struct Field {
  using type = T;
  T& (*get)(PerturbatorConfig&);
  T& operator()(PerturbatorConfig& c) const { return get(c); }
};
using TextField = Field<std::string, 0>;
using CountField = Field<std::size_t, 1>;
using SeedField = Field<std::uint64_t, 2>;
using RealField = Field<double, 3>;
using FlagField = Field<bool, 4>;
using ListField = Field<std::vector<std::string>, 5>;
using ConfigField = std::variant<TextField, CountField, SeedField, RealField, FlagField, ListField>;

struct PerturbatorOption {
  std::string_view flag;     // the command line's, without "--": "min-cosine", "no-strict"
  std::string_view keyword;  // Python's: "min_cosine", "strict"
  ConfigField field;
  std::string_view help;
  double min = 0, max = 0;     // counts and reals: the inclusive range
  bool negated = false;        // a flag: keyword=True sets the field false (--no-strict)
  bool none_is_word = false;   // text: Python's None is "none" (switched off)
  bool needs_vectors = false;  // means nothing without vectors
  bool hide_default = false;   // no default worth showing (a flag that is off)
  // How docs and docstrings name a default that depends on the installation (a shipped file,
  // Debian's directory); "" shows the value itself.
  std::string_view default_name = "";
};

// Every option, in the order the command line lists them.
std::span<const PerturbatorOption> perturbator_option_table();

// The option with this command-line name ("min-cosine") or Python keyword ("min_cosine");
// nullptr when none has it.
const PerturbatorOption* find_perturbator_flag(std::string_view flag);
const PerturbatorOption* find_perturbator_keyword(std::string_view keyword);

// The option's default as the docs write it: its default_name, else the default config's value
// ("0.7", "256", "mutual", "false" for a flag: the Python keyword's default for a negated one).
std::string default_text(const PerturbatorOption& option);

// The checks between options, for any front end: core::UsageError when a vector setting differs
// from its default without vectors, and when analogy and active are both switched off.
void check_perturbator_config(const PerturbatorConfig& config);

}  // namespace assay::fairness
