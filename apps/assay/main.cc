// assay: the command line. Creates the command groups, lets every registered command add
// itself (see command.h), parses, and is the only place that prints errors and chooses the
// exit code (0 ok, 1 failures found by an oracle, 2 bad input or usage, 3 internal error).
//
// Before parsing it installs the SIGINT/SIGTERM handler (core/interrupt.h) for every command:
// it removes registered temporary files, prints the command's resume hint and exits 130/143.
// A command may block these signals in its threads and wait for them itself (sigwait).
// After the command it flushes standard output and checks every write to it succeeded: a
// failed write (disk full, /dev/full, a closed file) is exit 2 naming standard output.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>

#include "command.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "version.h"

namespace assay::cli {
std::vector<CommandEntry>& command_registry() {
  static std::vector<CommandEntry> registry;
  return registry;
}

namespace {
// Flushes standard output; false (with a message on stderr) when any write to it failed.
bool standard_output_ok() {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int err = errno;
  if (flushed && !std::ferror(stdout) && !std::cout.fail()) return true;
  std::fprintf(stderr, "assay: error: cannot write standard output: %s\n",
               err != 0 ? std::strerror(err) : "write failed (disk full or file closed?)");
  return false;
}
}  // namespace
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
  assay::core::install_interrupt_handlers();
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
    if (!standard_output_ok()) return kBadInput;  // --help > /dev/full
    return code == 0 ? kOk : kBadInput;
  } catch (const assay::core::Error& e) {
    std::fprintf(stderr, "assay: error: %s\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "assay: internal error: %s\n", e.what());
    return kInternalError;
  }
  if (!standard_output_ok()) return kBadInput;
  return result.exit_code;
}
