// Shared shape of every subcommand: an add_<verb>_command function registers its options on a
// CLI::App and sets a callback that stores the command's exit code here. Only main.cc prints
// errors and returns the exit code (0 ok, 1 an oracle found failures, 2 bad input or usage).
#pragma once

namespace assay::cli {

enum ExitCode : int { kOk = 0, kFailuresFound = 1, kBadInput = 2, kInternalError = 3 };

struct CommandResult {
  int exit_code = kOk;
};

}  // namespace assay::cli
