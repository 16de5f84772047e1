#include "interrupt.h"

namespace assay::python {

void CallHooks::report(std::uint64_t done, std::uint64_t total) const {
  check();
  if (progress_.is_none()) return;
  pybind11::gil_scoped_acquire acquire;
  progress_(done, total);
}

void CallHooks::start_serving() {
  caller_ = std::this_thread::get_id();
  serving_ = true;
}

void CallHooks::stop_serving() {
  serving_ = false;
}

void CallHooks::run_on_caller(const std::function<void()>& f) const {
  if (!serving_ || std::this_thread::get_id() == caller_) {
    f();
    return;
  }
  Call call;
  call.f = &f;
  std::unique_lock lock(mutex_);
  calls_.push_back(&call);
  cv_.notify_all();
  cv_.wait(lock, [&] { return call.done; });
  if (call.error) std::rethrow_exception(call.error);
}

bool CallHooks::serve_one(std::chrono::milliseconds wait) {
  Call* call = nullptr;
  {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, wait, [&] { return !calls_.empty(); })) return false;
    call = calls_.front();
    calls_.pop_front();
  }
  try {
    // After a signal no callable starts: the call is stopping (its caller sees Interrupted).
    check();
    (*call->f)();
  } catch (pybind11::error_already_set& e) {
    // KeyboardInterrupt (or SystemExit) raised in the callable: the whole call stops.
    pybind11::gil_scoped_acquire acquire;
    call->error = std::current_exception();
    if (!e.matches(PyExc_Exception)) {
      if (!stop_error_) stop_error_ = call->error;
      stop_.store(true);
    }
  } catch (...) {
    call->error = std::current_exception();
  }
  {
    std::lock_guard lock(mutex_);
    call->done = true;
  }
  cv_.notify_all();
  return true;
}

}  // namespace assay::python
