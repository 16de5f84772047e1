// Shared shape of every subcommand. A command file defines
//   void add_<verb>_command(CLI::App& group, CommandResult& result)
// which registers its options and a callback storing the exit code in `result`, and registers
// that function once with ASSAY_REGISTER_COMMAND(group, group description, verb, function).
// main.cc creates the groups (`assay aeon …`, `assay rec …`) and calls every registered
// function in (group, verb) order; it alone prints errors and returns the exit code
// (0 ok, 1 an oracle found failures, 2 bad input or usage, 3 internal error).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace assay::cli {

enum ExitCode : int { kOk = 0, kFailuresFound = 1, kBadInput = 2, kInternalError = 3 };

struct CommandResult {
  int exit_code = kOk;
};

using AddCommandFn = void (*)(CLI::App& group, CommandResult& result);

struct CommandEntry {
  std::string group;
  std::string group_description;
  std::string verb;
  AddCommandFn add;
};

// All registered commands (filled during static initialisation).
std::vector<CommandEntry>& command_registry();

struct CommandRegistrar {
  CommandRegistrar(const char* group, const char* group_description, const char* verb,
                   AddCommandFn add) {
    command_registry().push_back({group, group_description, verb, add});
  }
};

}  // namespace assay::cli

// Use inside namespace assay::cli, after the add function.
#define ASSAY_REGISTER_COMMAND(group, group_description, verb, fn)                   \
  [[maybe_unused]] static const ::assay::cli::CommandRegistrar assay_registrar_##fn( \
      group, group_description, verb, fn);
