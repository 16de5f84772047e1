#include "core/thread_pool.h"

#include <algorithm>
#include <exception>
#include <string>

#include "core/error.h"

namespace assay::core {

ThreadPool::ThreadPool(std::size_t n_threads)
    : n_threads_(n_threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : n_threads) {
  try {
    workers_.reserve(n_threads_ - 1);
    for (std::size_t i = 1; i < n_threads_; ++i) workers_.emplace_back([this] { worker_loop(); });
  } catch (const std::exception& e) {  // the machine's limit (threads, address space)
    const std::size_t started = workers_.size() + 1;
    stop_and_join();
    std::string m = "cannot start " + std::to_string(n_threads_) + " threads (";
    m += e.what();
    m += "; " + std::to_string(started) + " started): give fewer threads";
    throw UsageError(m);
  }
}

ThreadPool::~ThreadPool() {
  stop_and_join();
}

void ThreadPool::stop_and_join() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
  workers_.clear();
}

void ThreadPool::run_chunks() {
  for (;;) {
    std::size_t lo = 0, hi = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (next_ >= end_ || error_) return;
      lo = next_;
      hi = std::min(end_, lo + grain_);
      next_ = hi;
    }
    try {
      for (std::size_t i = lo; i < hi; ++i) (*fn_)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      return;
    }
  }
}

void ThreadPool::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      ++active_;
    }
    run_chunks();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --active_;
    }
    done_.notify_all();
  }
}

void ThreadPool::parallel_for(std::size_t begin, std::size_t end, std::size_t grain,
                              const std::function<void(std::size_t)>& fn) {
  if (begin >= end) return;
  grain = std::max<std::size_t>(1, grain);
  if (n_threads_ == 1) {
    for (std::size_t i = begin; i < end; ++i) fn(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = &fn;
    next_ = begin;
    end_ = end;
    grain_ = grain;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  run_chunks();
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    next_ = end_;  // no new chunks once the caller is done
    done_.wait(lock, [&] { return active_ == 0; });
    fn_ = nullptr;
    error = error_;
    error_ = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

void parallel_for(std::size_t n_threads, std::size_t begin, std::size_t end, std::size_t grain,
                  const std::function<void(std::size_t)>& fn) {
  ThreadPool pool(n_threads);
  pool.parallel_for(begin, end, grain, fn);
}

}  // namespace assay::core
