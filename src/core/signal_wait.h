// A server's main thread, dedicated to SIGINT, SIGTERM and SIGHUP while the server runs on a
// thread of its own. Construct a SignalWait before the process starts any thread of its own
// (so every thread started later inherits the blocked mask and none runs a handler); threads
// that existed before (OpenBLAS's pool, started when a library loads) do not block the
// signals, so while a SignalWait lives the process-wide handler only passes a signal on to the
// waiting thread (where it is blocked, so sigwait() takes it), never the interrupt handler that
// would end the process.
#pragma once

#include <functional>

namespace assay::core {

class SignalWait {
 public:
  // Blocks the signals on this thread and installs the passing handler.
  SignalWait();
  ~SignalWait();
  SignalWait(const SignalWait&) = delete;
  SignalWait& operator=(const SignalWait&) = delete;

  // Runs serve() on a thread of its own and waits here for a signal; the first one calls
  // stop(), which must make serve() return (signals that come while it drains are taken here
  // too, so a second one does not cut the drain short). Returns the first signal, or 0 when
  // serve() returned without one.
  int run(const std::function<void()>& serve, const std::function<void()>& stop);
};

// "SIGINT", "SIGTERM", "SIGHUP" ("no signal" for 0).
const char* signal_name(int signal);

}  // namespace assay::core
