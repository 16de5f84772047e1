// Progress on stderr for long runs. On a terminal: one redrawn bar with count, rate and ETA.
// Otherwise (logs, CI): a plain line at most every `interval_seconds`. Silent when quiet.
// add() is thread-safe and cheap (an atomic increment; the clock is read at most every ~100
// ticks per thread).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>

namespace assay::core {

struct ProgressOptions {
  bool quiet = false;
  double interval_seconds = 10.0;  // plain-line mode
  std::FILE* stream = stderr;
  // -1: detect with isatty; 0: plain lines; 1: bar.
  int terminal = -1;
  // Called by every add() with the count done so far and the total, on the thread that added,
  // quiet or not (a library's caller following the run, e.g. the Python module's progress
  // callback); what it throws leaves add().
  std::function<void(std::uint64_t done, std::uint64_t total)> on_add;
};

class Progress {
 public:
  Progress(std::string label, std::uint64_t total, ProgressOptions options = {});
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(std::uint64_t n = 1);
  // Prints the final line (once).
  void finish();
  std::uint64_t done() const { return done_.load(); }

  // "1.2 s", "3 min 04 s", "1 h 02 min".
  static std::string format_duration(double seconds);

 private:
  void report(bool final);

  std::string label_;
  std::uint64_t total_;
  ProgressOptions options_;
  bool terminal_;
  std::atomic<std::uint64_t> done_{0};
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_report_;
  std::mutex mutex_;
  bool finished_ = false;
};

}  // namespace assay::core
