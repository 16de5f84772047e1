// A fixed pool of worker threads with parallel_for. Work is split into chunks of `grain`
// indices taken in order from a shared counter; results must not depend on which thread runs
// a chunk (give each index its own seed, see rng.h). The first exception thrown by any worker
// is rethrown on the calling thread after all workers have stopped; later chunks are skipped.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace assay::core {

class ThreadPool {
 public:
  // n_threads == 0 means std::thread::hardware_concurrency(). With 1 thread all work runs
  // inline on the caller. When the system cannot start them all (a thread or address-space
  // limit), the threads started are stopped and joined and UsageError says so.
  explicit ThreadPool(std::size_t n_threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  std::size_t size() const { return n_threads_; }

  // Calls fn(i) for every i in [begin, end). Blocks until done. Not reentrant: do not call
  // parallel_for from inside fn.
  void parallel_for(std::size_t begin, std::size_t end, std::size_t grain,
                    const std::function<void(std::size_t)>& fn);

 private:
  void worker_loop();
  void run_chunks();
  void stop_and_join();

  std::size_t n_threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // Current job; guarded by mutex_ except the counters, which are read under it too.
  const std::function<void(std::size_t)>* fn_ = nullptr;
  std::size_t next_ = 0, end_ = 0, grain_ = 1;
  std::size_t active_ = 0;
  std::uint64_t generation_ = 0;
  std::exception_ptr error_;
  bool stop_ = false;
};

// Runs fn over [begin, end) on a temporary pool of n_threads.
void parallel_for(std::size_t n_threads, std::size_t begin, std::size_t end, std::size_t grain,
                  const std::function<void(std::size_t)>& fn);

}  // namespace assay::core
