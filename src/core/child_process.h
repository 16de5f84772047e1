// Starting and ending child processes: what every adapter that runs the user's program needs
// (the `cmd:` model of src/models, the `cmd:` recommender of src/recsys). Programs are started
// directly (posix_spawnp, no shell; a PROGRAM without '/' is looked up in PATH) with their
// stdin, stdout and stderr as pipes whose parent ends are close-on-exec, so one child never
// inherits another's pipes.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace assay::core {

// Splits "PROGRAM ARGS..." into words: blanks separate, '…' and "…" quote (no escapes inside
// single quotes; \" and \\ inside double quotes). Throws core::UsageError on an unclosed quote.
std::vector<std::string> split_command_words(const std::string& command);

// The executable posix_spawnp would run for `program`, or empty when none is found.
std::string resolve_program(const std::string& program);

// Ignores SIGPIPE process-wide (once), so that a write to a dead child fails with EPIPE instead
// of killing the process; a handler installed by someone else is left alone.
void ignore_sigpipe();

struct ChildProcess {
  pid_t pid = -1;
  int stdin_fd = -1;   // write end of the child's stdin
  int stdout_fd = -1;  // read end of its stdout
  int stderr_fd = -1;  // read end of its stderr
  pid_t group = -1;    // its process group when it leads its own (own_group), else -1
};

// Starts `argv` (argv[0] is the program). Throws core::Error naming the program and the reason
// ("not found in PATH", ...) when it cannot start. With `own_group` the child leads a new
// process group, so kill_and_reap and kill_group also end the processes it started.
ChildProcess spawn_child(const std::vector<std::string>& argv, bool own_group = false);

// SIGKILLs what is left of the child's process group (own_group only; the child itself may be
// reaped already). The group id stays valid while the group has a member.
void kill_group(const ChildProcess& child);

// Closes the parent's ends of the pipes that are still open (sets them to -1).
void close_pipes(ChildProcess& child);

// SIGKILLs the child (unless already reaped; its whole group with own_group) and waits for it;
// returns its wait status.
int kill_and_reap(ChildProcess& child);

// Waits for the child to exit; returns its wait status.
int reap(ChildProcess& child);

// "exited with status 3", "was killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

}  // namespace assay::core
