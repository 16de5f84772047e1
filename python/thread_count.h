// The `threads=` argument of the module's functions, bounded as the command line bounds
// --threads, so a typo (threads=100000) is refused before any thread is started.
#pragma once

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

}  // namespace assay::python
