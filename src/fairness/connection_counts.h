// ConnectionCounts: what GuardedHttpServer did with its connections so far, a snapshot for
// ServiceMetrics (`GET /metrics`) and tests. `open` is a gauge; the rest only grow.
#pragma once

#include <cstdint>

namespace assay::fairness {

struct ConnectionCounts {
  std::uint64_t open = 0;               // connections being served now (gauge)
  std::uint64_t accepted = 0;           // connections served (refused ones not included)
  std::uint64_t refused = 0;            // answered 503 at once: the connection cap was reached
  std::uint64_t too_large = 0;          // answered 413: a body over the limit
  std::uint64_t headers_too_large = 0;  // answered 431: request line and headers over the limit
  std::uint64_t idle_timeouts = 0;      // closed: no request began within the idle timeout
  std::uint64_t read_timeouts = 0;      // cut: a request not read whole within the read timeout
  std::uint64_t write_timeouts = 0;     // cut: an answer the client did not take in time
};

}  // namespace assay::fairness
