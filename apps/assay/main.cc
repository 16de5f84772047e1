// assay: the command line. Creates the command groups, lets every registered command add
// itself (see command.h), parses, and is the only place that prints errors and chooses the
// exit code (0 ok, 1 failures found by an oracle, 2 bad input or usage, 3 internal error).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>

#include "command.h"
#include "core/error.h"
#include "version.h"

namespace assay::cli {
std::vector<CommandEntry>& command_registry() {
  static std::vector<CommandEntry> registry;
  return registry;
}
}  // namespace assay::cli

int main(int argc, char** argv) {
  using namespace assay::cli;
  CommandResult result;
  CLI::App app{
      "assay: test machine-learning software — fairness of NLP models, quality of "
      "generated test cases, stability of recommenders"};
  app.set_version_flag("--version", std::string("assay ") + kAssayVersion);
  app.require_subcommand(1);

  auto entries = command_registry();
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return std::tie(a.group, a.verb) < std::tie(b.group, b.verb);
  });
  std::map<std::string, CLI::App*> groups;
  for (const auto& e : entries) {
    CLI::App*& group = groups[e.group];
    if (!group) {
      group = app.add_subcommand(e.group, e.group_description);
      group->require_subcommand(1);
    }
    e.add(*group, result);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kBadInput;
  } catch (const assay::core::Error& e) {
    std::fprintf(stderr, "assay: error: %s\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "assay: internal error: %s\n", e.what());
    return kInternalError;
  }
  return result.exit_code;
}
