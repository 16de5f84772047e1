// `assay fair serve`: the neutral layer as an HTTP proxy in front of a model
// (fairness::NeutralService): POST /predict {"text"} (or a batch, Hugging Face JSON, KServe v2
// at /v2/models/NAME/infer) perturbs each text, asks the upstream for it and its k ≤ --max-k
// perturbations, and answers the (ε, k)-fair smoothed scores; GET /health, GET /metrics
// (Prometheus). An http: upstream given no --body-template is probed once at start with
// {"texts": [two texts]}: when it answers one entry per text it is asked in batches. Binds
// 127.0.0.1 unless --listen says otherwise; prints "listening on http://HOST:PORT" on stdout once
// it accepts connections (port 0 picks a free one). SIGTERM or SIGINT: stops accepting, answers the
// requests in flight, exits 0. Under load (fairness::GuardedHttpServer): at most --max-connections
// connections, more are answered 503 at once; --idle-timeout-ms and --read-timeout-ms cut idle and
// slow connections;
// --max-body is enforced while the body is read; listens with --backlog; a port in use: exit 2.
//
// Signals (core::SignalWait): taken on the main thread while the server runs on its own.
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.h"
#include "core/error.h"
#include "core/signal_wait.h"
#include "fairness/neutral_proxy.h"
#include "gate_options.h"
#include "model_options.h"
#include "option_checks.h"
#include "perturbation_options.h"

namespace assay::cli {
namespace {

struct FairServeOptions {
  ModelOpenOptions model;  // --upstream, --cache and the adapter's options
  PerturbationOptions perturbation;
  GateOptions gate;
  bool quiet = false;
  std::string listen = fairness::ProxyRequest{}.listen;
  fairness::NeutralServiceOptions service;  // --epsilon, --max-k, ... (model_name "": derived)
  // The service's durations in milliseconds, its defaults.
  std::size_t deadline_ms = static_cast<std::size_t>(service.deadline_seconds * 1000);
  std::size_t read_timeout_ms = static_cast<std::size_t>(service.read_timeout.count());
  std::size_t idle_timeout_ms = static_cast<std::size_t>(service.idle_timeout.count());
  std::size_t backlog = static_cast<std::size_t>(service.backlog);
  bool timeout_given = false, concurrency_given = false;  // else derived from the deadline, max-k
  bool template_given = false;  // else an http: upstream is asked in batches when it takes them
};

int run(FairServeOptions& o) {
  // Before any thread exists (the resource loaders and the server start threads).
  core::SignalWait signals;
  fairness::ProxyRequest request;
  request.listen = o.listen;
  request.upstream = {.spec = o.model.spec,
                      .model = model_options(o.model.adapter),
                      .cache = o.model.cache,
                      .probe_batches = !o.template_given};
  request.timeout_given = o.timeout_given;
  request.concurrency_given = o.concurrency_given;
  request.service = o.service;
  request.service.deadline_seconds = static_cast<double>(o.deadline_ms) / 1000.0;
  request.service.read_timeout = std::chrono::milliseconds(o.read_timeout_ms);
  request.service.idle_timeout = std::chrono::milliseconds(o.idle_timeout_ms);
  request.service.backlog = static_cast<int>(o.backlog);
  request.perturbator = o.perturbation;
  request.gate = o.gate;
  auto proxy = fairness::open_neutral_proxy(std::move(request));
  auto& service = *proxy.service;
  std::printf("listening on http://%s:%d\n", proxy.host.c_str(), proxy.port);
  std::fflush(stdout);
  if (!o.quiet) {
    std::fprintf(stderr,
                 "fair serve: %s (%s), epsilon %g, max-k %zu, attribute %s; POST /predict, "
                 "POST /v2/models/%s/infer, GET /health, GET /metrics on http://%s:%d (SIGTERM "
                 "or Ctrl-C stops)\n",
                 service.upstream_identity().c_str(),
                 proxy.upstream.batched ? "asked one request per proxy request"
                                        : "asked one text per request, in parallel",
                 proxy.options.epsilon, proxy.options.max_k,
                 proxy.loaded.perturbator->attribute().name.c_str(),
                 proxy.options.model_name.c_str(), proxy.host.c_str(), proxy.port);
  }
  const int signalled = signals.run([&] { service.serve(); }, [&] { service.stop(); });
  const auto& m = service.metrics();
  if (!o.quiet) {
    std::fprintf(
        stderr,
        "fair serve: stopped (%s); %llu prediction requests answered, %llu upstream errors, %llu "
        "cache hits\n",
        core::signal_name(signalled), static_cast<unsigned long long>(m.predictions_answered()),
        static_cast<unsigned long long>(m.upstream_errors()),
        static_cast<unsigned long long>(m.cache_hits()));
  }
  if (const auto& gate = proxy.loaded.gate) report_gate(*gate, gate->counts(), o.quiet);
  if (signalled == 0) throw std::runtime_error("the server stopped without being asked to");
  return kOk;
}

void add_fair_serve_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairServeOptions>();
  auto& adapter = o->model.adapter.model;
  adapter.http.max_retries = 1;
  adapter.timeout_seconds = static_cast<double>(o->deadline_ms) / 1000.0;
  adapter.http.concurrency = static_cast<int>(o->service.max_k + 1);
  o->service.model_name.clear();  // derived from the upstream unless given
  auto* cmd = fair.add_subcommand(
      "serve",
      "The neutral layer as an HTTP proxy in front of a model: POST /predict ({\"text\"}, "
      "{\"texts\"}, Hugging Face {\"inputs\"}) and POST /v2/models/NAME/infer (KServe v2) "
      "answer (epsilon, k)-fair smoothed scores; GET /health, GET /metrics");
  cmd->add_option(
         "--upstream", o->model.spec,
         "The model behind the proxy (lr:FILE, cmd:PROGRAM ..., http:URL, bert:DIR, afinn:)")
      ->required();
  add_finite(cmd, "--epsilon", o->service.epsilon, "The certified epsilon of every answer",
             {.min = 0})
      ->required();
  add_count(cmd, "--max-k", o->service.max_k, "Perturbations asked per text (the first K)",
            {.min = 1, .max = 1024})
      ->capture_default_str();
  add_count(cmd, "--max-batch", o->service.max_batch, "Texts per request (more: 400)",
            {.min = 1, .max = 4096})
      ->capture_default_str();
  cmd->add_option("--model-name", o->service.model_name,
                  "NAME in /v2/models/NAME (default: the upstream's, for a KServe v2 upstream; "
                  "else 'model')");
  cmd->add_option("--listen", o->listen, "HOST:PORT to listen on (port 0: any free port)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& listen) -> std::string {
            try {
              (void)fairness::parse_listen(listen);
              return {};
            } catch (const core::UsageError& e) {
              return e.what();
            }
          },
          "HOST:PORT"));
  add_count(cmd, "--max-body", o->service.max_body_bytes,
            "Largest request body in bytes (larger: 413)", {.min = 16, .max = 1'073'741'824})
      ->capture_default_str();
  add_count(cmd, "--deadline-ms", o->deadline_ms, "Per-request deadline (later: 504)",
            {.min = 1, .max = 3'600'000})
      ->capture_default_str();
  add_count(cmd, "--max-concurrent", o->service.max_concurrent,
            "Requests worked on at once (more: 503)", {.min = 1, .max = 1024})
      ->capture_default_str();
  add_count(cmd, "--max-connections", o->service.max_connections,
            "Connections served at once, one thread each (more: 503 at once)",
            {.min = 1, .max = 4096})
      ->capture_default_str();
  add_count(cmd, "--read-timeout-ms", o->read_timeout_ms,
            "A request's line, headers and body must arrive within this of its first byte "
            "(later: cut)",
            {.min = 10, .max = 600'000})
      ->capture_default_str();
  add_count(cmd, "--idle-timeout-ms", o->idle_timeout_ms,
            "A connection on which no request begins within this is closed",
            {.min = 10, .max = 600'000})
      ->capture_default_str();
  add_count(cmd, "--backlog", o->backlog,
            "Connections the kernel queues before they are accepted (capped by somaxconn)",
            {.min = 1, .max = 65535})
      ->capture_default_str();
  add_database_file(cmd, "--cache", o->model.cache,
                    "SQLite answer cache of the upstream (shared, persistent)");
  // Without --timeout and --concurrency: the request's deadline, and max-k + 1 (at most 64).
  add_model_adapter_options(cmd, o->model.adapter);
  add_perturbation_options(cmd, o->perturbation);
  add_gate_options(cmd, o->gate);
  cmd->add_flag("--quiet", o->quiet, "No progress or summary on stderr");
  cmd->callback([o, cmd, &result] {
    o->timeout_given = cmd->count("--timeout") > 0;
    o->concurrency_given = cmd->count("--concurrency") > 0;
    o->template_given = cmd->count("--body-template") > 0;
    result.exit_code = run(*o);
  });
}

}  // namespace

ASSAY_REGISTER_COMMAND("fair", "Fairness of NLP models (MT-NLP): perturb inputs, test models",
                       "serve", add_fair_serve_command)

}  // namespace assay::cli
