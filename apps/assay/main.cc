// assay: the command line. Creates the command groups, lets every registered command add
// itself (see command.h), parses, and is the only place that prints errors and chooses the
// exit code (0 ok, 1 failures found by an oracle, 2 bad input or usage, 3 internal error).
//
// Before parsing it installs the SIGINT/SIGTERM handler (core/interrupt.h) for every command:
// it removes registered temporary files, prints the command's resume hint and exits 130/143.
// A command may block these signals in its threads and wait for them itself (sigwait).
// After parsing and before the command runs it refuses outputs that name the command's own
// inputs (check_command_paths). After the command it flushes standard output and checks every write
// to it succeeded: a failed write (disk full, /dev/full, a closed file) is exit 2 naming standard
// output.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <sstream>

#include "command.h"
#include "core/error.h"
#include "core/excerpt.h"
#include "core/interrupt.h"
#include "core/version.h"
#include "option_checks.h"

namespace assay::cli {
std::vector<CommandEntry>& command_registry() {
  static std::vector<CommandEntry> registry;
  return registry;
}

namespace {
// Opens /dev/null on each of the standard descriptors 0, 1 and 2 that is closed, so that a file
// the command opens never gets one of their numbers: with stderr closed, progress lines would
// otherwise land in the first output file opened. Standard output is opened read-only, so its
// first write still fails as on the closed descriptor (results are never discarded silently);
// progress and messages on a closed stderr go nowhere.
void open_closed_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int null_fd = ::open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
    if (null_fd >= 0 && null_fd != fd) {
      ::dup2(null_fd, fd);
      ::close(null_fd);
    }
  }
}

// Prints an error line; text copied from inputs and models has its control bytes escaped.
void print_error(const char* kind, const std::string& message) {
  const std::string safe = assay::core::escape_control(message);
  std::fprintf(stderr, "assay: %s: %s\n", kind, safe.c_str());
}

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
  open_closed_standard_fds();
  // Past a file size limit (ulimit -f) a write fails with EFBIG and is reported, instead of the
  // signal killing the command with no message and its temporary file left.
  std::signal(SIGXFSZ, SIG_IGN);
  CommandResult result;
  CLI::App app{
      "assay: test machine-learning software — fairness of NLP models, quality of "
      "generated test cases, stability of recommenders"};
  app.set_version_flag("--version", std::string("assay ") + assay::core::kVersion);
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

  // Before the command runs: its outputs must not name its inputs, its lists hold no empty
  // item (option_checks.h).
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  app.parse_complete_callback([&app, &args] {
    for (const CLI::App* group : app.get_subcommands()) {
      for (const CLI::App* cmd : group->get_subcommands()) {
        check_list_items(*cmd, args);
        check_command_paths(*cmd);
      }
    }
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::ostringstream err;  // a usage error quotes the command line: escaped before printing
    const int code = app.exit(e, std::cout, err);
    const std::string safe = assay::core::escape_control(err.str());
    std::fputs(safe.c_str(), stderr);
    if (!standard_output_ok()) return kBadInput;  // --help > /dev/full
    return code == 0 ? kOk : kBadInput;
  } catch (const assay::core::Error& e) {
    print_error("error", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    print_error("internal error", e.what());
    return kInternalError;
  }
  if (!standard_output_ok()) return kBadInput;
  return result.exit_code;
}
