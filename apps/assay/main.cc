// assay: the command line. Registers subcommands, parses, and is the only place that prints
// errors and chooses the exit code (0 ok, 1 failures found by an oracle, 2 bad input or usage,
// 3 internal error).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "aeon_eval_command.h"
#include "command.h"
#include "core/error.h"
#include "version.h"

int main(int argc, char** argv) {
  using namespace assay::cli;
  CommandResult result;
  CLI::App app{"assay: test machine-learning software — fairness of NLP models, quality of "
               "generated test cases, stability of recommenders"};
  app.set_version_flag("--version", std::string("assay ") + kAssayVersion);
  app.require_subcommand(1);

  auto* aeon = app.add_subcommand("aeon", "Test-case quality (AEON): score and evaluate");
  aeon->require_subcommand(1);
  add_aeon_eval_command(*aeon, result);

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
