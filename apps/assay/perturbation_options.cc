#include "perturbation_options.h"

#include <string>
#include <variant>

#include "core/overloaded.h"
#include "fairness/perturbator_option_table.h"
#include "option_checks.h"

namespace assay::cli {
namespace {

// One option of the table, registered on `cmd` with its kind's checks.
CLI::Option* add_table_option(CLI::App* cmd, const fairness::PerturbatorOption& spec,
                              PerturbationOptions& o) {
  const std::string name = "--" + std::string(spec.flag);
  const std::string help(spec.help);
  const CountBounds counts{.min = static_cast<std::uint64_t>(spec.min),
                           .max = static_cast<std::uint64_t>(spec.max)};
  auto* option = std::visit(
      core::Overloaded{
          [&](fairness::TextField f) { return cmd->add_option(name, f(o), help); },
          [&](fairness::CountField f) { return add_count(cmd, name, f(o), help, counts); },
          [&](fairness::SeedField f) { return add_count(cmd, name, f(o), help, counts); },
          [&](fairness::RealField f) {
            return add_finite(cmd, name, f(o), help, {.min = spec.min, .max = spec.max});
          },
          [&](fairness::FlagField f) { return cmd->add_flag(name, f(o), help); },
          [&](fairness::ListField f) { return cmd->add_option(name, f(o), help)->delimiter(','); },
      },
      spec.field);
  if (!std::holds_alternative<fairness::FlagField>(spec.field) && !spec.hide_default)
    option->capture_default_str();
  return option;
}

}  // namespace

void add_perturbation_options(CLI::App* cmd, PerturbationOptions& o) {
  CLI::Option* vectors = nullptr;
  for (const auto& spec : fairness::perturbator_option_table()) {
    auto* option = add_table_option(cmd, spec, o);
    // The vector settings mean nothing without vectors: each needs --vectors.
    if (spec.flag == "vectors") vectors = option;
    if (spec.needs_vectors) option->needs(vectors);
  }
  // Both would leave nothing to perturb.
  cmd->get_option("--no-analogy")->excludes(cmd->get_option("--no-active"));
}

}  // namespace assay::cli
