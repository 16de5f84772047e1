// `fair serve` as a library run: the request holds what the proxy is given (where it listens,
// the upstream and its adapter's options, the perturbator and the gate, the service's limits;
// the defaults written once, here and in NeutralServiceOptions), and open_neutral_proxy checks
// it, opens the upstream (probing an http: one for batches), loads the perturbator and the gate
// and binds the service. The front end only waits for a signal (core/signal_wait.h) and
// prints.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "fairness/neutral_service.h"
#include "fairness/neutral_upstream.h"
#include "fairness/perturbation_gate.h"
#include "fairness/perturbator_config.h"

namespace assay::fairness {

struct ProxyRequest {
  std::string listen = "127.0.0.1:8080";  // HOST:PORT or [IPv6]:PORT; port 0: any free one
  NeutralUpstreamConfig upstream;         // spec, the adapter's options, the answer cache
  // The adapter's timeout and concurrency when not given: the request's deadline, and
  // max_k + 1 (at most 64) texts at once.
  bool timeout_given = false, concurrency_given = false;
  NeutralServiceOptions service;  // model_name "": the upstream's Open Inference name, or "model"
  PerturbatorConfig perturbator;
  GateSettings gate;
};

struct HostPort {
  std::string host;
  int port = 0;
};

// "HOST:PORT" or "[IPv6]:PORT", PORT in 0..65535. Throws core::UsageError saying what is wrong.
HostPort parse_listen(const std::string& listen);

// The proxy, opened and bound: serve() it, stop() it from another thread.
struct NeutralProxy {
  GatedPerturbator loaded;
  NeutralUpstream upstream;
  NeutralServiceOptions options;  // as the service runs (its model name resolved)
  std::unique_ptr<NeutralService> service;
  std::string host;  // as a URL writes it ([IPv6])
  int port = 0;      // the port bound
};

// Checks the request (the listen address, the model name, the gate) before the upstream is
// opened, then the perturbator's resources load (seconds), and binds. Raises the soft limit of
// open descriptors towards the hard one when it is too low for max_connections. Throws the
// errors of each step; a port in use is a core::UsageError.
NeutralProxy open_neutral_proxy(ProxyRequest request);

}  // namespace assay::fairness
