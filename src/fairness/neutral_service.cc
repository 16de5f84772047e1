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
#include <thread>

#include "core/error.h"
#include "fairness/guarded_http_server.h"
#include "models/cached_model.h"
#include "models/model_error.h"

namespace assay::fairness {
namespace {

using Clock = std::chrono::steady_clock;

// A fixed set of threads running posted jobs in order. The service never posts more jobs than
// it has threads (a slot is taken first), so a job starts at once.
class JobRunner {
 public:
  explicit JobRunner(std::size_t n_threads) {
    for (std::size_t i = 0; i < n_threads; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~JobRunner() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
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
  int status = 500;
  std::string body;
};

std::string error_body(const std::string& message) {
  return nlohmann::json{{"error", message}}.dump(-1, ' ', false,
                                                 nlohmann::json::error_handler_t::replace);
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

NeutralAnswer answer_neutrally(const Perturbator& perturbator, models::Model& model,
                               std::string_view text, double epsilon, std::size_t max_k,
                               const PerturbationFilter& filter) {
  // The filter judges the first max_k (a request's cost stays bounded); those it drops are not
  // replaced.
  PerturbationSet set = perturbator.perturb(text, max_k);
  if (filter) filter(std::string(text), set);
  NeutralAnswer a;
  const std::size_t k = std::min(max_k, set.perturbations.size());
  a.texts.reserve(k + 1);
  a.texts.emplace_back(text);
  for (std::size_t i = 0; i < k; ++i) a.texts.push_back(set.perturbations[i].text);
  auto* cached = dynamic_cast<models::CachedModel*>(&model);
  const std::uint64_t hits_before = cached ? cached->n_hits() : 0;
  const auto outputs = model.predict(a.texts);
  if (cached) a.cache_hits = cached->n_hits() - hits_before;
  auto smoothed = neutral_smooth(outputs, epsilon);
  a.scores = std::move(smoothed.scores[0]);
  a.label = smoothed.label;
  a.upstream_scores = outputs[0];
  a.certificate = smoothed.certificate;
  return a;
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

  // The work of one request (on a runner thread): status and body.
  std::pair<int, std::string> work(const std::string& text) {
    std::unique_ptr<models::Model> model;
    try {
      model = take_model();
    } catch (const std::exception& e) {
      metrics.count_upstream_error();
      return {502, error_body(std::string("upstream: ") + e.what())};
    }
    NeutralAnswer a;
    try {
      a = answer_neutrally(perturbator, *model, text, options.epsilon, options.max_k,
                           options.filter);
    } catch (const core::ParseError& e) {
      give_back(std::move(model));
      return {400, error_body(std::string("\"text\": ") + e.what())};
    } catch (const std::exception& e) {
      // The model (or its answer) failed: a fresh one serves the next request.
      metrics.count_upstream_error();
      return {502, error_body(std::string("upstream: ") + e.what())};
    }
    give_back(std::move(model));
    metrics.count_answer(a.texts.size(), a.cache_hits, a.certificate.k);
    nlohmann::ordered_json j;
    j["label"] = labels[a.label];
    j["scores"] = a.scores;
    j["labels"] = labels;
    j["certificate"] = {{"epsilon", a.certificate.epsilon}, {"k", a.certificate.k}};
    j["upstream_label"] = labels[models::argmax(a.upstream_scores)];
    j["upstream_scores"] = a.upstream_scores;
    return {200, j.dump()};
  }

  void predict(const httplib::Request& req, httplib::Response& res) {
    const auto start = Clock::now();
    auto answer = [&](int status, const std::string& body) {
      res.status = status;
      res.set_content(body, "application/json");
      metrics.observe_predict_seconds(seconds_since(start));
    };
    nlohmann::json body;
    try {
      body = nlohmann::json::parse(req.body);
    } catch (const nlohmann::json::exception& e) {
      return answer(400, error_body(std::string("the body is not JSON: ") + e.what()));
    }
    if (!body.is_object() || !body.contains("text") || !body["text"].is_string()) {
      return answer(400, error_body("expected a JSON object {\"text\": \"...\"}"));
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
                                      " requests in progress (--max-concurrent)"));
      }
      ++busy;
    }
    metrics.add_in_flight(1);
    auto job = std::make_shared<Job>();
    runner->post([this, job, text = body["text"].get<std::string>()] {
      std::pair<int, std::string> outcome;
      try {
        outcome = work(text);
      } catch (const std::exception& e) {
        outcome = {500, error_body(std::string("internal error: ") + e.what())};
      }
      {
        std::lock_guard lock(job->mutex);
        job->status = outcome.first;
        job->body = std::move(outcome.second);
        job->done = true;
      }
      job->cv.notify_all();
      release_slot();
    });
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options.deadline_seconds));
    std::unique_lock lock(job->mutex);
    if (!job->cv.wait_until(lock, deadline, [&] { return job->done; })) {
      lock.unlock();
      return answer(504, error_body("no answer within the deadline of " +
                                    std::to_string(static_cast<long long>(
                                        std::llround(options.deadline_seconds * 1000))) +
                                    " ms (--deadline-ms)"));
    }
    answer(job->status, job->body);
  }
};

NeutralService::NeutralService(const Perturbator& perturbator, ModelFactory upstream,
                               NeutralServiceOptions options)
    : impl_(std::make_unique<Impl>(perturbator, std::move(upstream), options)) {
  const auto& o = impl_->options;
  if (!std::isfinite(o.epsilon) || o.epsilon < 0)
    throw core::UsageError("--epsilon must be finite and >= 0");
  if (o.max_concurrent == 0) throw core::UsageError("--max-concurrent must be at least 1");
  if (!std::isfinite(o.deadline_seconds) || o.deadline_seconds <= 0)
    throw core::UsageError("--deadline-ms must be positive");
  if (o.max_body_bytes == 0) throw core::UsageError("--max-body must be at least 1 byte");
  auto first = impl_->factory();
  impl_->labels = first->labels();
  impl_->identity = first->identity();
  impl_->give_back(std::move(first));

  auto& s = impl_->server;
  Impl* impl = impl_.get();
  impl->metrics.set_connection_source([impl] { return impl->server.counts(); });
  s.Post("/predict",
         [impl](const httplib::Request& req, httplib::Response& res) { impl->predict(req, res); });
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
  s.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 404) {
      res.set_content(error_body("no such endpoint: " + req.path +
                                 " (POST /predict, GET /health, GET /metrics)"),
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
