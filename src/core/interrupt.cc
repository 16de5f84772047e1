#include "core/interrupt.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace assay::core {
namespace {

constexpr std::size_t kMaxPath = 4096;
constexpr std::size_t kMaxHint = 512;

// Slot states: 0 free, 1 being written by its owner, 2 holds a path the handler may remove.
struct Slot {
  std::atomic<int> state{0};
  char path[kMaxPath];
};

Slot g_slots[kMaxTempFiles];
char g_hint[2][kMaxHint];
std::atomic<int> g_hint_index{-1};  // which g_hint buffer is current; -1 none
std::atomic<bool> g_installed{false};
std::atomic<int> g_defer_depth{0};     // > 0: signals are recorded in g_pending, not acted on
std::atomic<int> g_pending{0};         // the recorded signal, 0 none
std::atomic<bool> g_forwarded{false};  // a copy of g_pending was sent to g_defer_thread
pthread_t g_defer_thread;              // the thread that deferred (woken with the signal)

static_assert(std::atomic<int>::is_always_lock_free);

void write_str(const char* s) {
  std::size_t n = std::strlen(s);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<std::size_t>(w);
  }
}

[[noreturn]] void honour(int sig);

void on_interrupt(int sig) {
  if (g_defer_depth.load(std::memory_order_acquire) > 0) {
    const bool on_deferring_thread = pthread_equal(pthread_self(), g_defer_thread) != 0;
    int expected = 0;
    if (g_pending.compare_exchange_strong(expected, sig)) {
      if (!on_deferring_thread) {
        g_forwarded.store(true);
        ::pthread_kill(g_defer_thread, sig);  // wake its poll()
      }
      return;
    }
    // A signal is pending already: this one is the forwarded copy (ignored) or a second
    // signal from the user, honoured at once.
    if (on_deferring_thread && expected == sig && g_forwarded.exchange(false)) return;
  }
  honour(sig);
}

void honour(int sig) {
  for (Slot& slot : g_slots) {
    if (slot.state.load(std::memory_order_acquire) == 2) ::unlink(slot.path);
  }
  // Registered directories (unlink refuses them) go once emptied: a pass per level of nesting.
  for (int pass = 0; pass < 4; ++pass) {
    for (Slot& slot : g_slots) {
      if (slot.state.load(std::memory_order_acquire) == 2) ::rmdir(slot.path);
    }
  }
  const char* name = sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
  write_str("\nassay: interrupted (");
  write_str(name);
  write_str(")");
  const int h = g_hint_index.load(std::memory_order_acquire);
  if (h >= 0) {
    write_str("; ");
    write_str(g_hint[h]);
  }
  write_str("\n");
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  if (g_installed.exchange(true)) return;
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  // While one signal is handled the other waits, so the clean-up runs once.
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaddset(&sa.sa_mask, SIGHUP);
  sa.sa_flags = 0;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  // A closed terminal (SIGHUP) ends the run like SIGTERM, unless the user asked to ignore it
  // (nohup): an ignored SIGHUP stays ignored.
  struct sigaction old {};
  ::sigaction(SIGHUP, nullptr, &old);
  if (old.sa_handler != SIG_IGN) ::sigaction(SIGHUP, &sa, nullptr);
}

int register_temp_file(const std::string& path) {
  if (path.size() >= kMaxPath) return -1;
  for (std::size_t i = 0; i < kMaxTempFiles; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(2, std::memory_order_release);
      return static_cast<int>(i);
    }
  }
  return -1;
}

void unregister_temp_file(int id) {
  if (id < 0 || static_cast<std::size_t>(id) >= kMaxTempFiles) return;
  g_slots[id].state.store(0, std::memory_order_release);
}

void unregister_temp_path(const std::string& path) {
  for (Slot& slot : g_slots) {
    if (slot.state.load(std::memory_order_acquire) == 2 && path == slot.path) {
      slot.state.store(0, std::memory_order_release);
      return;
    }
  }
}

InterruptDeferral::InterruptDeferral() {
  if (g_defer_depth.load(std::memory_order_acquire) == 0) g_defer_thread = pthread_self();
  g_defer_depth.fetch_add(1, std::memory_order_acq_rel);
}

InterruptDeferral::~InterruptDeferral() {
  if (g_defer_depth.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  const int sig = g_pending.exchange(0);
  if (sig != 0) honour(sig);
}

bool interrupt_pending() {
  return g_pending.load(std::memory_order_acquire) != 0;
}

void set_resume_hint(const std::string& hint) {
  if (hint.empty()) {
    g_hint_index.store(-1, std::memory_order_release);
    return;
  }
  // Write into the buffer not currently published, then publish it.
  const int next = g_hint_index.load(std::memory_order_acquire) == 0 ? 1 : 0;
  const std::size_t n = std::min(hint.size(), kMaxHint - 1);
  std::memcpy(g_hint[next], hint.data(), n);
  g_hint[next][n] = '\0';
  g_hint_index.store(next, std::memory_order_release);
}

}  // namespace assay::core
