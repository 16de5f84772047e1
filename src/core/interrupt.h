// Interrupts (SIGINT, SIGTERM, SIGHUP): one process-wide handler, installed by main() before any
// command runs, that
//   1. removes every registered temporary file and then every registered directory left empty
//      (the atomic writer registers its temporary files, so an interrupted run leaves no
//      "<out>.tmp-<pid>" behind; a cmd: recommender its training directories),
//   2. prints the resume hint the running command registered, if any, and
//   3. exits 128 + the signal number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP; a
//      SIGHUP ignored when assay starts, as under nohup, stays ignored) without running
//      destructors or atexit handlers.
// The handler only uses async-signal-safe calls (unlink, rmdir, write, _exit) on a fixed
// registry.
//
// A command that handles the signals itself (e.g. a server that blocks SIGINT/SIGTERM in every
// thread and waits for them with sigwait) may do so: a blocked signal never reaches the handler.
#pragma once

#include <cstddef>
#include <string>

namespace assay::core {

// Installs the handler for SIGINT, SIGTERM and SIGHUP (idempotent).
void install_interrupt_handlers();

// Registers `path` for removal on interrupt (a file; or a directory, removed once the files
// registered in it are: what else it holds keeps it); returns a slot id for unregister_temp_file,
// or -1 when the registry (kMaxTempFiles) is full or the path too long (the file is then only
// removed by its owner's normal clean-up).
inline constexpr std::size_t kMaxTempFiles = 64;
int register_temp_file(const std::string& path);
// Forgets slot `id` (after the file was renamed into place or removed). Ignores -1.
void unregister_temp_file(int id);
// Forgets the slot holding `path`, if any.
void unregister_temp_path(const std::string& path);

// Sets the line printed on stderr when an interrupt ends the command (e.g. "rerun the same
// command to resume"); an empty string clears it. Printed as "assay: interrupted; <hint>".
void set_resume_hint(const std::string& hint);

// Deferral: while an InterruptDeferral lives (in any thread), the first SIGINT/SIGTERM/SIGHUP is
// recorded instead of acted on, and passed to the deferring thread so a blocking poll() or
// sleep there returns EINTR; code inside checks interrupt_pending() and stops soon, keeping what
// it has (an answer cache stores the answers received). When the outermost deferral ends, a
// recorded signal is honoured as above (temporary files removed, hint, exit 128 + signal). A
// second signal while one is pending is honoured at once. Deferrals nest (same thread).
class InterruptDeferral {
 public:
  InterruptDeferral();
  ~InterruptDeferral();
  InterruptDeferral(const InterruptDeferral&) = delete;
  InterruptDeferral& operator=(const InterruptDeferral&) = delete;
};
// True when a signal was recorded during a deferral and not yet honoured.
bool interrupt_pending();

// RAII registration of a temporary file.
class TempFileGuard {
 public:
  explicit TempFileGuard(const std::string& path) : id_(register_temp_file(path)) {}
  ~TempFileGuard() { unregister_temp_file(id_); }
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;

 private:
  int id_;
};

}  // namespace assay::core
