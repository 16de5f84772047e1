#include "core/signal_wait.h"

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <thread>

namespace assay::core {
namespace {

// The thread that takes the signals with sigwait().
pthread_t g_signal_thread;

sigset_t served_signals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGHUP);  // a closed terminal stops the server like SIGTERM
  return s;
}

// Runs on a thread that does not block the signals: passes it on to the waiting thread
// (pthread_kill is async-signal-safe).
extern "C" void pass_signal(int sig) {
  pthread_kill(g_signal_thread, sig);
}

}  // namespace

SignalWait::SignalWait() {
  const sigset_t signals = served_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  g_signal_thread = pthread_self();
  struct sigaction pass {};
  pass.sa_handler = pass_signal;
  sigemptyset(&pass.sa_mask);
  pass.sa_flags = SA_RESTART;
  sigaction(SIGINT, &pass, nullptr);
  sigaction(SIGTERM, &pass, nullptr);
  sigaction(SIGHUP, &pass, nullptr);
}

SignalWait::~SignalWait() = default;

int SignalWait::run(const std::function<void()>& serve, const std::function<void()>& stop) {
  const sigset_t signals = served_signals();
  std::atomic<bool> ended{false};
  const pthread_t waiting = pthread_self();
  std::thread server([&] {
    serve();
    ended = true;
    pthread_kill(waiting, SIGTERM);  // wakes sigwait() below if no signal came
  });
  int signalled = 0;
  for (;;) {
    int sig = 0;
    if (sigwait(&signals, &sig) != 0) continue;
    if (ended) break;
    if (signalled == 0) {
      signalled = sig;
      stop();
    }
  }
  server.join();
  return signalled;
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "no signal";
  }
}

}  // namespace assay::core
