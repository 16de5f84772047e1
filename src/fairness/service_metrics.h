// ServiceMetrics: the counters of the neutral-layer proxy (NeutralService), rendered in the
// Prometheus text exposition format (version 0.0.4) for `GET /metrics`:
//   assay_serve_requests_total{path,status}   answers by path (/predict, /, /health, /metrics,
//                                              /v2/health/live, /v2/health/ready,
//                                              /v2/models/NAME/infer, /v2/models/NAME (the
//                                              other model paths), other) and HTTP status
//   assay_serve_predict_seconds               histogram of prediction latency (POST /predict,
//                                              / and …/infer: every answer the handler gave:
//                                              200, 400, 502, 503, 504, ...)
//   assay_serve_upstream_errors_total         upstream failures (each one a 502)
//   assay_serve_abandoned_total               requests whose work stopped because they were
//                                              already answered 504 (before the upstream was
//                                              asked)
//   assay_serve_upstream_texts_total          texts given to the upstream (each text and its
//                                              class's neighbourhood, each once; answers from
//                                              the cache included)
//   assay_serve_cache_hits_total              of those, answered by the answer cache
//   assay_serve_perturbations_total           k summed over answered texts
//   assay_serve_in_flight                     prediction requests in progress (gauge)
// and, once a connection source is set (the server's ConnectionCounts):
//   assay_serve_open_connections              connections being served (gauge)
//   assay_serve_connections_total             connections served
//   assay_serve_connections_refused_total     connections answered 503 at the connection cap
//   assay_serve_bodies_too_large_total        requests answered 413 (body over --max-body)
//   assay_serve_headers_too_large_total       requests answered 431
//   assay_serve_connection_timeouts_total{phase}  connections cut: idle (no request began),
//                                              read (a request not read in time), write
// Label values are from a fixed set, so the number of series is bounded.
//
// Thread-safe: every method may be called from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "fairness/connection_counts.h"

namespace assay::fairness {

class ServiceMetrics {
 public:
  // Upper bounds of the latency buckets, seconds (+Inf is implied).
  static constexpr std::array<double, 14> kBuckets = {
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  void count_request(std::string_view path, int status);
  void observe_predict_seconds(double seconds);
  void count_upstream_error() { ++upstream_errors_; }
  // A request's work stopped because the request was already answered 504.
  void count_abandoned() { ++abandoned_; }
  void count_answer(std::uint64_t n_texts, std::uint64_t n_cache_hits, std::uint64_t k) {
    upstream_texts_ += n_texts;
    cache_hits_ += n_cache_hits;
    perturbations_ += k;
  }
  void add_in_flight(int delta) { in_flight_ += delta; }
  // Where render() reads the connection counts; set before the service serves.
  void set_connection_source(std::function<ConnectionCounts()> source) {
    connections_ = std::move(source);
  }

  // Answers of `path` with `status` so far (for tests and the summary).
  std::uint64_t requests(std::string_view path, int status) const;
  // Prediction requests answered 200, of every protocol (POST /predict, / and …/infer).
  std::uint64_t predictions_answered() const;
  std::uint64_t upstream_errors() const { return upstream_errors_; }
  std::uint64_t abandoned() const { return abandoned_; }
  std::uint64_t cache_hits() const { return cache_hits_; }

  // The exposition text, ending in a newline.
  std::string render() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, std::uint64_t> requests_;
  std::array<std::uint64_t, kBuckets.size() + 1> buckets_{};  // last: above every bound
  double seconds_sum_ = 0;
  std::uint64_t seconds_count_ = 0;
  std::atomic<std::uint64_t> upstream_errors_{0}, upstream_texts_{0}, cache_hits_{0},
      perturbations_{0}, abandoned_{0};
  std::atomic<std::int64_t> in_flight_{0};
  std::function<ConnectionCounts()> connections_;
};

}  // namespace assay::fairness
