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
// Signals: SIGINT and SIGTERM are blocked before the command starts any thread (so every
// thread it starts inherits the mask and none runs a handler) and taken by sigwait() on the
// main thread, dedicated to it while the server runs on its own; it stops the service.
// Threads that exist before the command runs (OpenBLAS's pool, started when the library loads)
// do not block them, and a signal sent to the process goes to one of those when the main thread
// is not waiting in sigwait() at that moment: while the command serves, the process-wide
// handler is replaced by one that only passes the signal on to the main thread (where it is
// blocked, so sigwait() takes it), never the interrupt handler that would end the process.
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "command.h"
#include "core/error.h"
#include "fairness/neutral_service.h"
#include "fairness/neutral_upstream.h"
#include "fairness/perturbation_gate.h"
#include "fairness/serving_protocols.h"
#include "gate_options.h"
#include "model_options.h"
#include "models/label_map.h"
#include "option_checks.h"
#include "perturbation_options.h"

namespace assay::cli {
namespace {

struct FairServeOptions {
  ModelOpenOptions model;  // --upstream, --cache and the adapter's options
  PerturbationOptions perturbation;
  GateOptions gate;
  bool quiet = false;
  std::string listen = "127.0.0.1:8080";
  double epsilon = 1;
  std::size_t max_k = 16;
  std::size_t max_batch = 64;
  std::string model_name;  // empty: the upstream's Open Inference model name, or "model"
  std::size_t max_body = 65536;
  std::size_t deadline_ms = 10000;
  std::size_t max_concurrent = 8;
  std::size_t max_connections = 256;
  std::size_t read_timeout_ms = 5000;
  std::size_t idle_timeout_ms = 2000;
  std::size_t backlog = 1024;
  bool timeout_given = false, concurrency_given = false;  // else derived from the deadline, max-k
  bool template_given = false;  // else an http: upstream is asked in batches when it takes them
};

struct HostPort {
  std::string host;
  int port = 0;
};

// "HOST:PORT" or "[IPv6]:PORT", PORT in 0..65535.
HostPort parse_listen(const std::string& s) {
  const auto bad = [&](const std::string& why) {
    return core::UsageError("--listen '" + s + "': " + why +
                            " (expected HOST:PORT, e.g. 127.0.0.1:8080; port 0 = any free port)");
  };
  const std::size_t colon = s.rfind(':');
  if (colon == std::string::npos || colon == 0) throw bad("no host or no port");
  std::string host = s.substr(0, colon);
  const std::string port = s.substr(colon + 1);
  if (host.front() == '[') {
    if (host.back() != ']' || host.size() < 3) throw bad("unclosed [ in the IPv6 address");
    host = host.substr(1, host.size() - 2);
  }
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
    throw bad("the port is not a number");
  const int p = std::stoi(port);
  if (p > 65535) throw bad("the port is above 65535");
  return {host, p};
}

// Each open connection and each refused one being drained holds a descriptor: raise the soft
// limit towards the hard one when the default (often 1,024) is too low for --max-connections.
void raise_descriptor_limit(std::size_t max_connections) {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
  const rlim_t wanted = static_cast<rlim_t>(max_connections) + 4096 + 256;
  if (rl.rlim_cur >= wanted) return;
  rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, rl.rlim_max);
  ::setrlimit(RLIMIT_NOFILE, &rl);
}

// The main thread, which takes SIGINT and SIGTERM with sigwait() (set before the handler below
// is installed).
pthread_t g_signal_thread;

// Runs on a thread that does not block the signals: passes it on to the main thread
// (pthread_kill is async-signal-safe).
extern "C" void pass_signal_to_main_thread(int sig) {
  pthread_kill(g_signal_thread, sig);
}

int run(FairServeOptions& o) {
  // Before any thread exists (the resource loaders and the server start threads).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGHUP);  // a closed terminal stops the server like SIGTERM
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  g_signal_thread = pthread_self();
  struct sigaction pass {};
  pass.sa_handler = pass_signal_to_main_thread;
  sigemptyset(&pass.sa_mask);
  pass.sa_flags = SA_RESTART;
  sigaction(SIGINT, &pass, nullptr);
  sigaction(SIGTERM, &pass, nullptr);
  sigaction(SIGHUP, &pass, nullptr);

  const HostPort listen = parse_listen(o.listen);
  if (!o.model_name.empty()) fairness::check_model_name(o.model_name);
  auto mo = model_options(o.model.adapter);
  if (!o.timeout_given) mo.timeout_seconds = static_cast<double>(o.deadline_ms) / 1000.0;
  if (!o.concurrency_given)
    mo.http.concurrency = static_cast<int>(std::min<std::size_t>(o.max_k + 1, 64));
  mo.http.backoff_seconds = 0.05;
  // The upstream spec is checked before the perturbator's resources load (seconds).
  const auto upstream = fairness::open_neutral_upstream({.spec = o.model.spec,
                                                         .model = std::move(mo),
                                                         .cache = o.model.cache,
                                                         .batch = (o.max_k + 2) * o.max_batch,
                                                         .probe_batches = !o.template_given});
  fairness::check_gate_settings(o.gate);
  const auto run = fairness::load_gated_perturbator(perturbator_settings(o.perturbation), o.gate);

  fairness::NeutralServiceOptions so;
  so.epsilon = o.epsilon;
  so.max_k = o.max_k;
  so.max_batch = o.max_batch;
  so.model_name = !o.model_name.empty()    ? o.model_name
                  : !upstream.name.empty() ? upstream.name
                                           : "model";
  so.max_body_bytes = o.max_body;
  so.deadline_seconds = static_cast<double>(o.deadline_ms) / 1000.0;
  so.max_concurrent = o.max_concurrent;
  so.max_connections = o.max_connections;
  so.read_timeout = std::chrono::milliseconds(o.read_timeout_ms);
  so.idle_timeout = std::chrono::milliseconds(o.idle_timeout_ms);
  so.backlog = static_cast<int>(o.backlog);
  if (run.gate) so.filter = run.gate->filter();
  // Clients keep the upstream's own names of its labels (--label-map NAME=label: NAME).
  so.label_names = models::LabelMap::parse(o.model.adapter.model.http.label_map).entries();
  raise_descriptor_limit(o.max_connections);
  fairness::NeutralService service(*run.perturbator, upstream.factory, so);
  const int port = service.bind(listen.host, listen.port);
  const std::string host =
      listen.host.find(':') != std::string::npos ? "[" + listen.host + "]" : listen.host;

  // The server on its own thread; this thread waits for the signal. (Threads started before
  // the command ran, such as OpenBLAS's, do not block the signals; a signal sent with kill()
  // goes to the main thread when it is waiting for it, so sigwait() is done here.)
  std::atomic<bool> server_ended{false};
  const pthread_t main_thread = pthread_self();
  std::thread server_thread([&] {
    service.serve();
    server_ended = true;
    pthread_kill(main_thread, SIGTERM);  // wakes sigwait() below if no signal came
  });
  std::printf("listening on http://%s:%d\n", host.c_str(), port);
  std::fflush(stdout);
  if (!o.quiet) {
    std::fprintf(stderr,
                 "fair serve: %s (%s), epsilon %g, max-k %zu, attribute %s; POST /predict, "
                 "POST /v2/models/%s/infer, GET /health, GET /metrics on http://%s:%d (SIGTERM "
                 "or Ctrl-C stops)\n",
                 service.upstream_identity().c_str(),
                 upstream.batched ? "asked one request per proxy request"
                                  : "asked one text per request, in parallel",
                 o.epsilon, o.max_k, run.perturbator->attribute().name.c_str(),
                 so.model_name.c_str(), host.c_str(), port);
  }
  // Signals that come while the requests in flight are answered are taken here too (a second
  // SIGTERM does not cut the drain short).
  int signalled = 0;
  for (;;) {
    int sig = 0;
    if (sigwait(&signals, &sig) != 0) continue;
    if (server_ended) break;
    if (signalled == 0) {
      signalled = sig;
      service.stop();
    }
  }
  server_thread.join();
  const auto& m = service.metrics();
  if (!o.quiet) {
    std::fprintf(
        stderr,
        "fair serve: stopped (%s); %llu prediction requests answered, %llu upstream errors, %llu "
        "cache hits\n",
        signalled == SIGINT    ? "SIGINT"
        : signalled == SIGTERM ? "SIGTERM"
        : signalled == SIGHUP  ? "SIGHUP"
                               : "no signal",
        static_cast<unsigned long long>(m.predictions_answered()),
        static_cast<unsigned long long>(m.upstream_errors()),
        static_cast<unsigned long long>(m.cache_hits()));
  }
  if (run.gate) report_gate(*run.gate, run.gate->counts(), o.quiet);
  if (signalled == 0) throw std::runtime_error("the server stopped without being asked to");
  return kOk;
}

void add_fair_serve_command(CLI::App& fair, CommandResult& result) {
  auto o = std::make_shared<FairServeOptions>();
  auto& adapter = o->model.adapter.model;
  adapter.http.max_retries = 1;
  adapter.timeout_seconds = static_cast<double>(o->deadline_ms) / 1000.0;
  adapter.http.concurrency = static_cast<int>(o->max_k + 1);
  auto* cmd = fair.add_subcommand(
      "serve",
      "The neutral layer as an HTTP proxy in front of a model: POST /predict ({\"text\"}, "
      "{\"texts\"}, Hugging Face {\"inputs\"}) and POST /v2/models/NAME/infer (KServe v2) "
      "answer (epsilon, k)-fair smoothed scores; GET /health, GET /metrics");
  cmd->add_option(
         "--upstream", o->model.spec,
         "The model behind the proxy (lr:FILE, cmd:PROGRAM ..., http:URL, bert:DIR, afinn:)")
      ->required();
  add_finite(cmd, "--epsilon", o->epsilon, "The certified epsilon of every answer", {.min = 0})
      ->required();
  add_count(cmd, "--max-k", o->max_k, "Perturbations asked per text (the first K)",
            {.min = 1, .max = 1024})
      ->capture_default_str();
  add_count(cmd, "--max-batch", o->max_batch, "Texts per request (more: 400)",
            {.min = 1, .max = 4096})
      ->capture_default_str();
  cmd->add_option("--model-name", o->model_name,
                  "NAME in /v2/models/NAME (default: the upstream's, for a KServe v2 upstream; "
                  "else 'model')");
  cmd->add_option("--listen", o->listen, "HOST:PORT to listen on (port 0: any free port)")
      ->capture_default_str();
  add_count(cmd, "--max-body", o->max_body, "Largest request body in bytes (larger: 413)",
            {.min = 16, .max = 1'073'741'824})
      ->capture_default_str();
  add_count(cmd, "--deadline-ms", o->deadline_ms, "Per-request deadline (later: 504)",
            {.min = 1, .max = 3'600'000})
      ->capture_default_str();
  add_count(cmd, "--max-concurrent", o->max_concurrent, "Requests worked on at once (more: 503)",
            {.min = 1, .max = 1024})
      ->capture_default_str();
  add_count(cmd, "--max-connections", o->max_connections,
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
