// Long calls: the library runs on a worker thread without the GIL while the calling thread
// watches for signals, so Ctrl-C (KeyboardInterrupt) stops a call in a notebook or a script.
// The library stops at its next hook — a chunk done, a batch for a Python model — and the
// signal's exception is raised (a Python callable that is running gets KeyboardInterrupt raised
// in it, so one that never returns does not keep the call alive); the optional progress callback
// progress(done, total) is called at the same hooks (with the GIL), and what it raises ends the
// call with that exception.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <future>
#include <optional>
#include <set>
#include <thread>
#include <type_traits>
#include <utility>

namespace assay::python {

// Thrown at a hook after a signal stopped the call; run_released raises the signal's exception
// instead.
struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

class CallHooks {
 public:
  // `progress`: None or a callable progress(done, total).
  explicit CallHooks(pybind11::object progress) : progress_(std::move(progress)) {}

  // Throws Interrupted when a signal stopped the call. Any thread, GIL not needed.
  void check() const {
    if (stop_.load()) throw Interrupted();
  }
  // check(), then the progress callback (GIL taken); throws what it raises. Any thread.
  void report(std::uint64_t done, std::uint64_t total) const;
  void request_stop() { stop_.store(true); }

  // The threads now inside a Python callable of this call (model, recommender), so that a
  // signal raises KeyboardInterrupt in them too (PyThreadState_SetAsyncExc): a callable that
  // loops or waits in Python code stops at its next bytecode instead of keeping the call
  // running. All three with the GIL held.
  void enter_callable() const { callers_.insert(PyThread_get_thread_ident()); }
  void leave_callable() const { callers_.erase(callers_.find(PyThread_get_thread_ident())); }
  void interrupt_callables() const {
    for (const unsigned long id : callers_) PyThreadState_SetAsyncExc(id, PyExc_KeyboardInterrupt);
  }

 private:
  pybind11::object progress_;
  std::atomic<bool> stop_{false};
  mutable std::multiset<unsigned long> callers_;
};

// Marks the current thread as inside a callable of `hooks` while it lives (GIL held).
class InCallable {
 public:
  explicit InCallable(const CallHooks& hooks) : hooks_(hooks) { hooks_.enter_callable(); }
  ~InCallable() { hooks_.leave_callable(); }
  InCallable(const InCallable&) = delete;
  InCallable& operator=(const InCallable&) = delete;

 private:
  const CallHooks& hooks_;
};

// Runs f() on a worker thread with the GIL released; meanwhile the calling thread (holding
// nothing) checks Python's signal handlers every 50 ms. When one raises (KeyboardInterrupt),
// hooks.request_stop(), the worker is waited for, and that exception is raised. Otherwise
// f's result is returned or its exception rethrown (a Python callback's exception as itself).
template <class F>
auto run_released(CallHooks& hooks, F&& f) -> std::invoke_result_t<F&> {
  namespace py = pybind11;
  using R = std::invoke_result_t<F&>;
  std::packaged_task<R()> task(std::forward<F>(f));
  auto result = task.get_future();
  std::optional<py::error_already_set> signal;
  {
    py::gil_scoped_release release;
    std::thread worker([&task] { task(); });
    while (result.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (signal) continue;
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {
        signal.emplace();
        hooks.request_stop();
        hooks.interrupt_callables();
      }
    }
    worker.join();
  }
  if (signal) throw std::move(*signal);
  return result.get();
}

}  // namespace assay::python
