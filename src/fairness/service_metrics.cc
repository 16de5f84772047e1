#include "fairness/service_metrics.h"

#include <charconv>

namespace assay::fairness {
namespace {

std::string known_path(std::string_view path) {
  if (path == "/predict" || path == "/" || path == "/health" || path == "/metrics" ||
      path == "/v2/health/live" || path == "/v2/health/ready")
    return std::string(path);
  // Open Inference paths name a model: counted under one label each.
  if (path.rfind("/v2/models/", 0) == 0) {
    const bool infer = path.size() >= 6 && path.substr(path.size() - 6) == "/infer";
    return infer ? "/v2/models/NAME/infer" : "/v2/models/NAME";
  }
  return "other";
}

// Shortest round-trip form ("0.005", not "0.0050000000000000001").
std::string number(double v) {
  char buffer[64];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed);
  return std::string(buffer, r.ptr);
}

}  // namespace

void ServiceMetrics::count_request(std::string_view path, int status) {
  std::lock_guard lock(mutex_);
  ++requests_[{known_path(path), status}];
}

void ServiceMetrics::observe_predict_seconds(double seconds) {
  std::size_t b = 0;
  while (b < kBuckets.size() && seconds > kBuckets[b]) ++b;
  std::lock_guard lock(mutex_);
  ++buckets_[b];
  seconds_sum_ += seconds;
  ++seconds_count_;
}

std::uint64_t ServiceMetrics::requests(std::string_view path, int status) const {
  std::lock_guard lock(mutex_);
  const auto it = requests_.find({known_path(path), status});
  return it == requests_.end() ? 0 : it->second;
}

std::uint64_t ServiceMetrics::predictions_answered() const {
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (const char* path : {"/predict", "/", "/v2/models/NAME/infer"}) {
    const auto it = requests_.find({path, 200});
    if (it != requests_.end()) n += it->second;
  }
  return n;
}

std::string ServiceMetrics::render() const {
  std::string out;
  auto counter = [&](const char* name, const char* help, std::uint64_t value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name +
           " " + std::to_string(value) + "\n";
  };
  std::lock_guard lock(mutex_);
  out +=
      "# HELP assay_serve_requests_total Requests answered, by path and HTTP status.\n"
      "# TYPE assay_serve_requests_total counter\n";
  for (const auto& [key, n] : requests_) {
    out += "assay_serve_requests_total{path=\"" + key.first + "\",status=\"" +
           std::to_string(key.second) + "\"} " + std::to_string(n) + "\n";
  }
  out +=
      "# HELP assay_serve_predict_seconds Time to answer POST /predict, any status.\n"
      "# TYPE assay_serve_predict_seconds histogram\n";
  std::uint64_t cumulative = 0;
  for (std::size_t b = 0; b < kBuckets.size(); ++b) {
    cumulative += buckets_[b];
    out += "assay_serve_predict_seconds_bucket{le=\"" + number(kBuckets[b]) + "\"} " +
           std::to_string(cumulative) + "\n";
  }
  cumulative += buckets_.back();
  out += "assay_serve_predict_seconds_bucket{le=\"+Inf\"} " + std::to_string(cumulative) + "\n";
  out += "assay_serve_predict_seconds_sum " + number(seconds_sum_) + "\n";
  out += "assay_serve_predict_seconds_count " + std::to_string(seconds_count_) + "\n";
  counter("assay_serve_upstream_errors_total", "Failures of the upstream model (answered 502).",
          upstream_errors_);
  counter("assay_serve_abandoned_total",
          "Requests whose work stopped, before the upstream was asked, because they had been "
          "answered 504.",
          abandoned_);
  counter("assay_serve_upstream_texts_total",
          "Texts given to the upstream model (each text and its class's neighbourhood), cache hits "
          "included.",
          upstream_texts_);
  counter("assay_serve_cache_hits_total", "Texts answered by the answer cache.", cache_hits_);
  counter("assay_serve_perturbations_total", "Perturbations k summed over answered requests.",
          perturbations_);
  out +=
      "# HELP assay_serve_in_flight POST /predict work in progress.\n"
      "# TYPE assay_serve_in_flight gauge\n"
      "assay_serve_in_flight " +
      std::to_string(in_flight_) + "\n";
  if (!connections_) return out;
  const ConnectionCounts c = connections_();
  out +=
      "# HELP assay_serve_open_connections Connections being served.\n"
      "# TYPE assay_serve_open_connections gauge\n"
      "assay_serve_open_connections " +
      std::to_string(c.open) + "\n";
  counter("assay_serve_connections_total", "Connections served (refused ones not included).",
          c.accepted);
  counter("assay_serve_connections_refused_total",
          "Connections answered 503 at once: the connection cap was reached.", c.refused);
  counter("assay_serve_bodies_too_large_total",
          "Requests answered 413: a body over the limit, refused while it was read.", c.too_large);
  counter("assay_serve_headers_too_large_total",
          "Requests answered 431: request line and headers over the limit.", c.headers_too_large);
  out +=
      "# HELP assay_serve_connection_timeouts_total Connections cut: no request began in the "
      "idle time-out (idle), a request not read within the read time-out (read), an answer not "
      "taken in time (write).\n"
      "# TYPE assay_serve_connection_timeouts_total counter\n";
  out += "assay_serve_connection_timeouts_total{phase=\"idle\"} " +
         std::to_string(c.idle_timeouts) + "\n";
  out += "assay_serve_connection_timeouts_total{phase=\"read\"} " +
         std::to_string(c.read_timeouts) + "\n";
  out += "assay_serve_connection_timeouts_total{phase=\"write\"} " +
         std::to_string(c.write_timeouts) + "\n";
  return out;
}

}  // namespace assay::fairness
