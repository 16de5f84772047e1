// Long calls: the library runs on a worker thread without the GIL while the calling thread
// watches for signals, so Ctrl-C (KeyboardInterrupt) stops a call in a notebook or a script.
// The library stops at its next hook — a chunk done, a batch for a Python model — and the
// signal's exception is raised. Python callables (models, recommenders) are run on the calling
// thread, where Python delivers signals: one that waits in C (time.sleep, a socket read) or
// loops gets KeyboardInterrupt raised in it at once, so it never keeps the call alive; the
// optional progress callback progress(done, total) is called at the same hooks (with the GIL),
// and what it raises ends the call with that exception.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <mutex>
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
  // An action run_released repeats (every 50 ms, on the calling thread) after a signal until
  // the call ends: e.g. models::Model::cancel, so that a model waiting on a child process or a
  // server stops waiting. Set before run_released.
  void on_stop(std::function<void()> action) { stop_action_ = std::move(action); }
  void run_stop_action() const {
    if (stop_action_) stop_action_();
  }

  // The threads now inside a Python callable of this call (model, recommender), so that a
  // signal raises KeyboardInterrupt in them too (PyThreadState_SetAsyncExc): a callable that
  // loops or waits in Python code stops at its next bytecode instead of keeping the call
  // running. All three with the GIL held.
  void enter_callable() const { callers_.insert(PyThread_get_thread_ident()); }
  void leave_callable() const { callers_.erase(callers_.find(PyThread_get_thread_ident())); }
  void interrupt_callables() const {
    for (const unsigned long id : callers_) PyThreadState_SetAsyncExc(id, PyExc_KeyboardInterrupt);
  }

  // Runs f() on the thread that called run_released (it takes the GIL itself) and waits for
  // it; what f throws is rethrown here. Outside run_released, or on that thread, runs f() at
  // once. Any thread; the caller must not hold the GIL.
  template <class F>
  auto on_caller(F&& f) const -> std::invoke_result_t<F&> {
    using R = std::invoke_result_t<F&>;
    if constexpr (std::is_void_v<R>) {
      run_on_caller(std::function<void()>(std::ref(f)));
    } else {
      std::optional<R> out;
      run_on_caller([&] { out.emplace(f()); });
      return std::move(*out);
    }
  }

  // run_released's side (the calling thread, without the GIL): serving starts and ends; one
  // queued call is run if one comes within `wait` (a KeyboardInterrupt or SystemExit it raises
  // stops the whole call, as request_stop; after a stop, a queued call gets Interrupted instead
  // of running). Returns whether one was taken.
  void start_serving();
  void stop_serving();
  bool serve_one(std::chrono::milliseconds wait);
  // The KeyboardInterrupt (or SystemExit) a callable served here raised first, if any: what
  // the call raises when the library stops at a hook because of it.
  std::exception_ptr stop_error() const { return stop_error_; }

 private:
  struct Call {
    const std::function<void()>* f = nullptr;
    std::exception_ptr error;
    bool done = false;
  };
  void run_on_caller(const std::function<void()>& f) const;

  pybind11::object progress_;
  std::atomic<bool> stop_{false};
  mutable std::multiset<unsigned long> callers_;
  std::atomic<bool> serving_{false};
  std::thread::id caller_;
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  mutable std::deque<Call*> calls_;
  std::exception_ptr stop_error_;
  std::function<void()> stop_action_;
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
// nothing) runs the Python callables f asks for (CallHooks::on_caller) and checks Python's
// signal handlers every 50 ms. When one raises (KeyboardInterrupt),
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
    hooks.start_serving();
    std::thread worker([&task] { task(); });
    while (result.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
      if (hooks.serve_one(std::chrono::milliseconds(50))) continue;
      if (signal) {
        hooks.run_stop_action();
        continue;
      }
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {
        signal.emplace();
        hooks.request_stop();
        hooks.interrupt_callables();
        hooks.run_stop_action();
      }
    }
    worker.join();
    hooks.stop_serving();
  }
  if (signal) throw std::move(*signal);
  try {
    return result.get();
  } catch (const Interrupted&) {
    // Stopped at a hook by a KeyboardInterrupt raised in a callable: raise that.
    if (hooks.stop_error()) std::rethrow_exception(hooks.stop_error());
    throw;
  }
}

}  // namespace assay::python
