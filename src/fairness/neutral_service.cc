#include "fairness/neutral_service.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "core/error.h"
#include "fairness/guarded_http_server.h"
#include "fairness/neutral_class.h"
#include "fairness/serving_protocols.h"
#include "models/cached_model.h"
#include "models/http_model.h"
#include "models/model_error.h"

namespace assay::fairness {
namespace {

using Clock = std::chrono::steady_clock;

// A fixed set of threads running posted jobs in order. The service never posts more jobs than
// it has threads (a slot is taken first), so a job starts at once.
class JobRunner {
 public:
  // Throws core::UsageError, after joining the threads started, when the system cannot start
  // them all (a thread or address-space limit).
  explicit JobRunner(std::size_t n_threads) {
    try {
      threads_.reserve(n_threads);
      for (std::size_t i = 0; i < n_threads; ++i) threads_.emplace_back([this] { loop(); });
    } catch (const std::exception& e) {
      const std::size_t started = threads_.size();
      stop_and_join();
      std::string m = "--max-concurrent: cannot start " + std::to_string(n_threads) + " threads (";
      m += e.what();
      m += "; " + std::to_string(started) + " started): give fewer";
      throw core::UsageError(m);
    }
  }
  ~JobRunner() { stop_and_join(); }
  void post(std::function<void()> job) {
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }
  void stop_and_join() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// The outcome of one /predict job, handed from the job's thread to the waiting handler.
struct Job {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  // Set when the request was answered 504: the job stops at its next check, before asking the
  // upstream, so a slot is not held for work nobody waits for.
  std::atomic<bool> abandoned{false};
  int status = 500;
  std::string body;
  httplib::Headers headers;
};

// What a job hands back.
struct Outcome {
  int status = 500;
  std::string body;
  httplib::Headers headers;
};

std::string error_body(const std::string& message) {
  return nlohmann::json{{"error", message}}.dump(-1, ' ', false,
                                                 nlohmann::json::error_handler_t::replace);
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

std::vector<NeutralAnswer> answer_neutrally(const Perturbator& perturbator, models::Model& model,
                                            const std::vector<std::string>& texts, double epsilon,
                                            std::size_t max_k, const PerturbationFilter& filter,
                                            const std::atomic<bool>* abandoned) {
  // The filter judges the first max_k perturbations of each representative (a request's cost
  // stays bounded); those it drops are not replaced.
  const NeutralPlan plan = plan_neutral(perturbator, texts, max_k, filter, 1, abandoned);
  if (abandoned && abandoned->load()) throw RequestAbandoned();
  auto* cached = dynamic_cast<models::CachedModel*>(&model);
  const std::uint64_t hits_before = cached ? cached->n_hits() : 0;
  const auto outputs = model.predict(plan.texts);
  std::vector<NeutralAnswer> answers(texts.size());
  if (cached && !answers.empty()) answers[0].cache_hits = cached->n_hits() - hits_before;
  for (std::size_t t = 0; t < texts.size(); ++t) {
    NeutralAnswer& a = answers[t];
    const auto planned = answer_planned(plan, t, outputs, epsilon);
    a.scores = planned.smoothed.scores;
    a.label = planned.smoothed.label;
    a.weight = planned.smoothed.weight;
    a.upstream_scores = outputs[plan.own[t]];
    a.reference = planned.reference;
    a.representative = plan.representative[t];
    a.certificate = {epsilon, planned.k};
    a.texts.push_back(texts[t]);
    for (std::size_t i : plan.neighbourhood[t])
      if (i != plan.own[t]) a.texts.push_back(plan.texts[i]);
  }
  return answers;
}

NeutralAnswer answer_neutrally(const Perturbator& perturbator, models::Model& model,
                               std::string_view text, double epsilon, std::size_t max_k,
                               const PerturbationFilter& filter) {
  return std::move(answer_neutrally(perturbator, model, std::vector<std::string>{std::string(text)},
                                    epsilon, max_k, filter)[0]);
}

struct NeutralService::Impl {
  const Perturbator& perturbator;
  ModelFactory factory;
  NeutralServiceOptions options;
  std::vector<std::string> labels;
  std::string identity;
  ServiceMetrics metrics;
  GuardedHttpServer server;
  std::unique_ptr<JobRunner> runner;

  std::mutex pool_mutex;
  std::vector<std::unique_ptr<models::Model>> pool;  // idle upstream models

  std::atomic<std::size_t> busy{0};  // slots taken (jobs not yet finished)
  std::mutex busy_mutex;
  std::condition_variable busy_cv;
  std::atomic<bool> stopping{false}, serving{false};

  Impl(const Perturbator& p, ModelFactory f, NeutralServiceOptions o)
      : perturbator(p), factory(std::move(f)), options(o), server(guard_options(o)) {}

  static GuardedHttpServerOptions guard_options(const NeutralServiceOptions& o) {
    GuardedHttpServerOptions g;
    g.max_connections = o.max_connections;
    g.read_timeout = o.read_timeout;
    g.idle_timeout = o.idle_timeout;
    g.backlog = o.backlog;
    g.max_body_bytes = std::max<std::size_t>(o.max_body_bytes, 1);
    return g;
  }

  std::unique_ptr<models::Model> take_model() {
    {
      std::lock_guard lock(pool_mutex);
      if (!pool.empty()) {
        auto m = std::move(pool.back());
        pool.pop_back();
        return m;
      }
    }
    return factory();
  }
  void give_back(std::unique_ptr<models::Model> m) {
    std::lock_guard lock(pool_mutex);
    pool.push_back(std::move(m));
  }
  void release_slot() {
    {
      std::lock_guard lock(busy_mutex);
      --busy;
    }
    busy_cv.notify_all();
    metrics.add_in_flight(-1);
  }

  // The work of one request (on a runner thread): status, body and headers.
  Outcome work(const ServeRequest& request, const std::atomic<bool>& abandoned) {
    if (abandoned) {
      metrics.count_abandoned();
      return {504, error_body("abandoned"), {}};
    }
    std::unique_ptr<models::Model> model;
    try {
      model = take_model();
    } catch (const std::exception& e) {
      metrics.count_upstream_error();
      return {502, error_body(std::string("upstream: ") + e.what()), {}};
    }
    // The request's fields go to an http: upstream (every pooled model is set, so none keeps an
    // earlier request's); answers asked with fields are not the cache's to give.
    models::Model* asked = model.get();
    auto* cached = dynamic_cast<models::CachedModel*>(asked);
    models::Model* inner = cached ? &cached->inner() : asked;
    if (auto* http = dynamic_cast<models::HttpModel*>(inner)) {
      http->set_request_fields(request.fields);
      if (!request.fields.empty()) asked = inner;
    }
    std::vector<NeutralAnswer> answers;
    try {
      answers = answer_neutrally(perturbator, *asked, request.texts, options.epsilon, options.max_k,
                                 options.filter, &abandoned);
    } catch (const RequestAbandoned&) {
      give_back(std::move(model));
      metrics.count_abandoned();
      return {504, error_body("abandoned"), {}};
    } catch (const core::ParseError& e) {
      give_back(std::move(model));
      return {400, error_body(std::string("text: ") + e.what()), {}};
    } catch (const std::exception& e) {
      // The model (or its answer) failed: a fresh one serves the next request.
      metrics.count_upstream_error();
      return {502, error_body(std::string("upstream: ") + e.what()), {}};
    }
    give_back(std::move(model));
    std::string ks;
    for (const auto& a : answers) {
      metrics.count_answer(a.texts.size(), a.cache_hits, a.certificate.k);
      if (!ks.empty()) ks += ',';
      ks += std::to_string(a.certificate.k);
    }
    Outcome out{200, answer_body(request, answers, labels, options.model_name), {}};
    if (request.form == RequestForm::kInputs || request.form == RequestForm::kInputsList) {
      out.headers.emplace("X-Assay-Epsilon", nlohmann::json(options.epsilon).dump());
      out.headers.emplace("X-Assay-K", ks);
    }
    return out;
  }

  // POST /predict, / and /v2/models/NAME/infer: parses the body as `parse` says, then works on
  // it within the deadline.
  void predict(const httplib::Request& req, httplib::Response& res,
               ServeRequest (*parse)(std::string_view)) {
    const auto start = Clock::now();
    auto answer = [&](int status, const std::string& body) {
      res.status = status;
      res.set_content(body, "application/json");
      metrics.observe_predict_seconds(seconds_since(start));
    };
    ServeRequest request;
    try {
      request = parse(req.body);
    } catch (const core::ParseError& e) {
      return answer(400, error_body(e.what()));
    }
    if (request.texts.size() > options.max_batch) {
      return answer(400, error_body("a batch of " + std::to_string(request.texts.size()) +
                                    " texts; at most " + std::to_string(options.max_batch) +
                                    " per request (the server's batch limit)"));
    }
    if (stopping) {
      res.set_header("Retry-After", "1");
      return answer(503, error_body("shutting down"));
    }
    {
      std::lock_guard lock(busy_mutex);
      if (busy >= options.max_concurrent) {
        res.set_header("Retry-After", "1");
        return answer(503, error_body("saturated: " + std::to_string(options.max_concurrent) +
                                      " requests in progress (the server's limit)"));
      }
      ++busy;
    }
    metrics.add_in_flight(1);
    auto job = std::make_shared<Job>();
    runner->post([this, job, request = std::move(request)] {
      Outcome outcome;
      try {
        outcome = work(request, job->abandoned);
      } catch (const std::exception& e) {
        outcome = {500, error_body(std::string("internal error: ") + e.what()), {}};
      }
      // The slot is free before the answer is handed over, so a client that sends its next
      // request as soon as it reads the answer never finds its own finished work counted.
      release_slot();
      {
        std::lock_guard lock(job->mutex);
        job->status = outcome.status;
        job->body = std::move(outcome.body);
        job->headers = std::move(outcome.headers);
        job->done = true;
      }
      job->cv.notify_all();
    });
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options.deadline_seconds));
    std::unique_lock lock(job->mutex);
    if (!job->cv.wait_until(lock, deadline, [&] { return job->done; })) {
      job->abandoned = true;
      lock.unlock();
      return answer(504, error_body("no answer within the deadline of " +
                                    std::to_string(static_cast<long long>(
                                        std::llround(options.deadline_seconds * 1000))) +
                                    " ms (the server's per-request deadline)"));
    }
    for (const auto& [name, value] : job->headers) res.set_header(name, value);
    answer(job->status, job->body);
  }

  // Whether `req` names this service's model (/v2/models/NAME/...); otherwise answers 404.
  bool our_model(const httplib::Request& req, httplib::Response& res) const {
    const std::string name = req.matches.size() > 1 ? req.matches[1].str() : "";
    if (name == options.model_name) return true;
    res.status = 404;
    res.set_content(error_body("no model '" + name + "' here (this proxy serves '" +
                               options.model_name + "': /v2/models/" + options.model_name + ")"),
                    "application/json");
    return false;
  }
};

NeutralService::NeutralService(const Perturbator& perturbator, ModelFactory upstream,
                               NeutralServiceOptions options)
    : impl_(std::make_unique<Impl>(perturbator, std::move(upstream), options)) {
  const auto& o = impl_->options;
  if (!std::isfinite(o.epsilon) || o.epsilon < 0)
    throw core::UsageError("the neutral layer's epsilon must be finite and >= 0");
  if (o.max_concurrent == 0)
    throw core::UsageError("the requests worked on at once must be at least 1");
  if (!std::isfinite(o.deadline_seconds) || o.deadline_seconds <= 0)
    throw core::UsageError("the per-request deadline must be positive");
  if (o.max_body_bytes == 0) throw core::UsageError("the body limit must be at least 1 byte");
  if (o.max_batch == 0) throw core::UsageError("the texts per request must be at least 1");
  check_model_name(o.model_name);
  auto first = impl_->factory();
  impl_->labels = first->labels();
  for (auto& label : impl_->labels) {
    for (const auto& [name, of] : o.label_names) {
      if (of != label) continue;
      label = name;
      break;
    }
  }
  impl_->identity = first->identity();
  impl_->give_back(std::move(first));

  auto& s = impl_->server;
  Impl* impl = impl_.get();
  impl->metrics.set_connection_source([impl] { return impl->server.counts(); });
  for (const char* path : {"/predict", "/"}) {
    s.Post(path, [impl](const httplib::Request& req, httplib::Response& res) {
      impl->predict(req, res, parse_predict_request);
    });
  }
  s.Post(R"(/v2/models/([^/]+)(?:/versions/[^/]+)?/infer)",
         [impl](const httplib::Request& req, httplib::Response& res) {
           if (impl->our_model(req, res)) impl->predict(req, res, parse_infer_request);
         });
  s.Get("/v2/health/live", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"live":true})", "application/json");
  });
  s.Get("/v2/health/ready", [impl](const httplib::Request&, httplib::Response& res) {
    if (impl->stopping) res.status = 503;
    res.set_content(impl->stopping ? R"({"ready":false})" : R"({"ready":true})",
                    "application/json");
  });
  s.Get(R"(/v2/models/([^/]+)(?:/versions/[^/]+)?)",
        [impl](const httplib::Request& req, httplib::Response& res) {
          if (!impl->our_model(req, res)) return;
          res.set_content(model_metadata(impl->options.model_name, impl->labels,
                                         impl->options.epsilon, impl->options.max_k),
                          "application/json");
        });
  s.Get(R"(/v2/models/([^/]+)(?:/versions/[^/]+)?/ready)", [impl](const httplib::Request& req,
                                                                  httplib::Response& res) {
    if (!impl->our_model(req, res)) return;
    if (impl->stopping) res.status = 503;
    res.set_content(
        nlohmann::json{{"name", impl->options.model_name}, {"ready", !impl->stopping.load()}}.dump(
            -1, ' ', false, nlohmann::json::error_handler_t::replace),
        "application/json");
  });
  s.Get("/health", [impl](const httplib::Request&, httplib::Response& res) {
    nlohmann::ordered_json j;
    j["status"] = impl->stopping ? "stopping" : "ok";
    j["upstream"] = impl->identity;
    j["labels"] = impl->labels;
    j["epsilon"] = impl->options.epsilon;
    j["max_k"] = impl->options.max_k;
    res.set_content(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                    "application/json");
  });
  s.Get("/metrics", [impl](const httplib::Request&, httplib::Response& res) {
    res.set_content(impl->metrics.render(), "text/plain; version=0.0.4");
  });
  s.set_error_handler([impl](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 404) {
      res.set_content(
          error_body("no such endpoint: " + req.path + " (POST /predict, POST /, POST /v2/models/" +
                     impl->options.model_name +
                     "/infer, GET /health, GET /v2/health/ready, GET /metrics)"),
          "application/json");
    }
  });
  s.set_logger([impl](const httplib::Request& req, const httplib::Response& res) {
    impl->metrics.count_request(req.path, res.status);
  });
  impl_->runner = std::make_unique<JobRunner>(o.max_concurrent);
}

NeutralService::~NeutralService() {
  stop();
  impl_->runner.reset();  // joins the runner's threads before the rest goes
}

int NeutralService::bind(const std::string& host, int port) {
  if (port < 0 || port > 65535)
    throw core::UsageError("port " + std::to_string(port) + " is not in 0..65535");
  return impl_->server.bind(host, port);
}

void NeutralService::serve() {
  impl_->serving = true;
  if (!impl_->stopping) impl_->server.listen_after_bind();
  impl_->serving = false;
  // Work whose request already got 504 may still run: let it finish, within drain_seconds.
  std::unique_lock lock(impl_->busy_mutex);
  impl_->busy_cv.wait_for(lock, std::chrono::duration<double>(impl_->options.drain_seconds),
                          [&] { return impl_->busy == 0; });
}

void NeutralService::stop() {
  impl_->stopping = true;
  if (!impl_->serving) return;
  // listen_after_bind() may not have started its loop yet; stop() needs it running.
  while (impl_->serving && !impl_->server.is_running())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl_->server.stop();
}

const std::vector<std::string>& NeutralService::labels() const {
  return impl_->labels;
}
const std::string& NeutralService::upstream_identity() const {
  return impl_->identity;
}
const ServiceMetrics& NeutralService::metrics() const {
  return impl_->metrics;
}

}  // namespace assay::fairness
