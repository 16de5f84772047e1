#include "fairness/neutral_proxy.h"

#include <sys/resource.h>

#include <algorithm>

#include "core/error.h"
#include "fairness/serving_protocols.h"
#include "models/label_map.h"

namespace assay::fairness {
namespace {

// Each open connection and each refused one being drained holds a descriptor: raise the soft
// limit towards the hard one when the default (often 1,024) is too low for max_connections.
void raise_descriptor_limit(std::size_t max_connections) {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
  const rlim_t wanted = static_cast<rlim_t>(max_connections) + 4096 + 256;
  if (rl.rlim_cur >= wanted) return;
  rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, rl.rlim_max);
  ::setrlimit(RLIMIT_NOFILE, &rl);
}

}  // namespace

HostPort parse_listen(const std::string& s) {
  const auto bad = [&](const std::string& why) {
    return core::UsageError("listen address '" + s + "': " + why +
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

NeutralProxy open_neutral_proxy(ProxyRequest r) {
  const HostPort listen = parse_listen(r.listen);
  auto& so = r.service;
  if (!so.model_name.empty()) check_model_name(so.model_name);
  auto& mo = r.upstream.model;
  if (!r.timeout_given) mo.timeout_seconds = so.deadline_seconds;
  if (!r.concurrency_given)
    mo.http.concurrency = static_cast<int>(std::min<std::size_t>(so.max_k + 1, 64));
  mo.http.backoff_seconds = 0.05;
  r.upstream.batch = (so.max_k + 2) * so.max_batch;
  // Clients keep the upstream's own names of its labels (label map NAME=label: NAME).
  so.label_names = models::LabelMap::parse(mo.http.label_map).entries();
  NeutralProxy proxy;
  // The upstream spec is checked before the perturbator's resources load (seconds).
  proxy.upstream = open_neutral_upstream(r.upstream);
  check_gate_settings(r.gate);
  proxy.loaded = load_gated_perturbator(perturbator_settings(r.perturbator), r.gate);
  if (so.model_name.empty())
    so.model_name = proxy.upstream.name.empty() ? "model" : proxy.upstream.name;
  if (proxy.loaded.gate) so.filter = proxy.loaded.gate->filter();
  raise_descriptor_limit(so.max_connections);
  proxy.options = so;
  proxy.service =
      std::make_unique<NeutralService>(*proxy.loaded.perturbator, proxy.upstream.factory, so);
  proxy.port = proxy.service->bind(listen.host, listen.port);
  proxy.host = listen.host.find(':') != std::string::npos ? "[" + listen.host + "]" : listen.host;
  return proxy;
}

}  // namespace assay::fairness
