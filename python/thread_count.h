// Arguments of the module's functions checked as the command line checks its options: the
// `threads=` argument bounded as --threads, so a typo (threads=100000) is refused before any
// thread is started; thresholds, time-outs and deltas finite and in their bounds, so NaN never
// turns into "every case passes" or a wait without end.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>

#include "core/error.h"

namespace assay::python {

inline constexpr std::size_t kMaxThreads = 4'096;  // the command line's --threads bound

// Throws core::UsageError unless 1 <= threads <= kMaxThreads (0 too where `zero_is_every_core`).
inline void check_threads(long long threads, bool zero_is_every_core) {
  const long long low = zero_is_every_core ? 0 : 1;
  if (threads >= low && threads <= static_cast<long long>(kMaxThreads)) return;
  std::string m = "threads: expected ";
  m += zero_is_every_core ? "0 (every core) to " : "1 to ";
  m += std::to_string(kMaxThreads) + ", got " + std::to_string(threads);
  throw core::UsageError(m);
}

// Throws core::UsageError naming `name` unless `x` is a finite number >= `min` (> `min` where
// `min_exclusive`).
inline void check_finite(double x, const char* name, double min, bool min_exclusive = false) {
  if (std::isfinite(x) && (min_exclusive ? x > min : x >= min)) return;
  std::string m = name;
  m += ": expected a finite number ";
  m += min_exclusive ? "> " : ">= ";
  std::string bound = std::to_string(min);
  bound.erase(bound.find_last_not_of('0') + 1);
  if (bound.back() == '.') bound.pop_back();
  m += bound + ", got " + std::to_string(x);
  throw core::UsageError(m);
}

// Throws core::UsageError naming `name` unless `x` is finite (a threshold of any sign).
inline void check_finite(double x, const char* name) {
  if (std::isfinite(x)) return;
  throw core::UsageError(std::string(name) + ": expected a finite number, got " +
                         std::to_string(x));
}

}  // namespace assay::python
