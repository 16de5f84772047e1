// NeutralService: the neutral layer over classes of texts (neutral_class.h) deployed as an HTTP
// proxy in front of any model (../shared/spec/fairness.md, "Serving"). For every text of a
// request it finds the text's class (its representative) and the class's neighbourhood (the
// representative and its k ≤ max_k perturbations), asks the upstream model for every distinct
// text of the request in one predict() call (a batched http: upstream gets them in one request;
// otherwise adapters ask them concurrently), and answers each text with f(x) =
// class_smooth(M(x), A, ε), its label and the certificate (ε, k). A text and every perturbation
// of it get answers within e^ε of each other — what `fair mitigate` reports.
//
//   POST /predict or /  {"text"}, {"texts": [...]} or Hugging Face {"inputs": ...}
//   POST /v2/models/NAME/infer          KServe v2 / Open Inference Protocol
//                                       (the bodies and answers: serving_protocols.h)
//   GET /health                    → 200 {"status": "ok", "upstream", "labels", "epsilon", "max_k"}
//   GET /v2/health/live, /v2/health/ready, /v2/models/NAME, /v2/models/NAME/ready
//   GET /metrics                   → 200 Prometheus text (service_metrics.h)
//
// Fields of a request other than its texts are forwarded to an http: upstream with every
// request made for it (models::HttpModel::set_request_fields); answers asked with such fields
// bypass the answer cache. Other upstreams take no request fields and ignore them.
//
// Errors answer {"error": "..."} and the service keeps serving: 400 malformed JSON, no texts
// in a form above, invalid UTF-8, more than max_batch texts; 404 another model's NAME; 413 a body
// over max_body_bytes; 503 max_concurrent requests already worked on (Retry-After: 1) or shutting
// down; 504 no answer within the deadline (the work goes on in the background and keeps its slot
// until it ends, so an overloaded upstream turns into 503s rather than piling up); 502 the upstream
// failed (its reason in the message; a model that failed is discarded and a fresh one made for the
// next request); 500 a bug.
//
// Upstream models come from `upstream` (called lazily, at most max_concurrent + 1 times; each
// model is used by one request at a time, so adapters need not be thread-safe). When a model is
// a models::CachedModel its cache hits are counted.
//
// Connections (GuardedHttpServer): each open connection holds a thread of its own, at most
// max_connections; a connection beyond them is answered 503 at once. A connection on which no
// request begins within idle_timeout is closed; a request whose line, headers and body are not
// all read within read_timeout of its first byte is cut; a body over max_body_bytes is refused
// with 413 while it is read (chunked ones included). GET /metrics also reports these counts.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fairness/neutral_layer.h"
#include "fairness/perturbator.h"
#include "fairness/service_metrics.h"
#include "models/model.h"

namespace assay::fairness {

struct NeutralServiceOptions {
  double epsilon = 1.0;                // finite, ≥ 0
  std::size_t max_k = 16;              // perturbations asked per text: the first max_k of S
  std::size_t max_batch = 64;          // texts per request (more: 400)
  std::string model_name = "model";    // NAME of /v2/models/NAME
  std::size_t max_body_bytes = 65536;  // larger request bodies: 413
  double deadline_seconds = 10;        // a request not answered by then: 504
  std::size_t max_concurrent = 8;      // prediction requests worked on at once; more: 503
  double drain_seconds = 30;           // after stop(), how long background work may finish
  // The connection guard (guarded_http_server.h; ranges checked there).
  std::size_t max_connections = 256;             // 1..4096 served at once; more: 503
  std::chrono::milliseconds read_timeout{5000};  // 10 ms..600 s: a request read whole
  std::chrono::milliseconds idle_timeout{2000};  // 10 ms..600 s: before a request begins
  int backlog = 1024;                            // 1..65535: connections waiting to be accepted
  // Applied to each request's perturbations before the upstream is asked (an AEON gate that
  // drops some: the certificate's k counts those asked).
  PerturbationFilter filter;
  // Names the clients read for the upstream's labels, (name, label) in order (an http:
  // upstream's --label-map): each label is answered as its first name here, so clients keep the
  // names the upstream itself answers with. Labels named here nowhere keep their own.
  std::vector<std::pair<std::string, std::string>> label_names;
};

// One smoothed answer.
struct NeutralAnswer {
  std::vector<double> scores;           // f(x)
  std::size_t label = 0;                // argmax f(x)
  double weight = 0;                    // λ: the reference's share of f(x)
  std::vector<double> upstream_scores;  // M(x)
  std::vector<double> reference;        // A: the mean of M over the neighbourhood
  std::string representative;           // the class's representative
  NeutralCertificate certificate;       // (ε, k: perturbations in the neighbourhood)
  std::vector<std::string> texts;       // x, then the neighbourhood's other texts
  std::uint64_t cache_hits = 0;         // texts the answer cache answered (CachedModel only)
};

// Plans `texts` (plan_neutral: each text's representative and its neighbourhood of the first
// `max_k` perturbations of it that `filter` keeps), asks `model` for every distinct text in one
// predict() call and answers each text (answer_planned); one answer per text, in order. The
// cache hits of the call are counted in the first answer. Throws core::ParseError for text that
// is not UTF-8 (naming its position), the model's errors (models::ModelError, core::Error) and
// class_smooth's (scores outside [0, 1]). With `abandoned`, stops once it is set, before the
// model is asked (RequestAbandoned).
std::vector<NeutralAnswer> answer_neutrally(const Perturbator& perturbator, models::Model& model,
                                            const std::vector<std::string>& texts, double epsilon,
                                            std::size_t max_k,
                                            const PerturbationFilter& filter = {},
                                            const std::atomic<bool>* abandoned = nullptr);
// One text.
NeutralAnswer answer_neutrally(const Perturbator& perturbator, models::Model& model,
                               std::string_view text, double epsilon, std::size_t max_k,
                               const PerturbationFilter& filter = {});

using ModelFactory = std::function<std::unique_ptr<models::Model>()>;

class NeutralService {
 public:
  // `perturbator` must outlive the service. Makes one upstream model at once (its labels and
  // identity are the service's; its errors propagate). Throws core::UsageError for bad options.
  NeutralService(const Perturbator& perturbator, ModelFactory upstream,
                 NeutralServiceOptions options = {});
  ~NeutralService();
  NeutralService(const NeutralService&) = delete;
  NeutralService& operator=(const NeutralService&) = delete;

  // Binds `host` (an address or name; "127.0.0.1" for loopback only) and `port` (0: any free
  // port); returns the port bound. Throws core::Error naming HOST:PORT when it cannot bind
  // (another server listening there: "already in use"; the port is never shared).
  int bind(const std::string& host, int port);
  // Serves on the bound socket until stop(); then waits (at most drain_seconds) for work left
  // in the background. Requests in flight when stop() is called are answered first.
  void serve();
  // Stops accepting connections; serve() returns once the requests in flight are answered.
  // Thread-safe; may be called before serve() starts or more than once.
  void stop();

  // The labels as clients read them (NeutralServiceOptions::label_names applied).
  const std::vector<std::string>& labels() const;
  const std::string& upstream_identity() const;
  const ServiceMetrics& metrics() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace assay::fairness
