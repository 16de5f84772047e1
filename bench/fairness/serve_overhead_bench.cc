// Overhead of the neutral-layer proxy (`assay fair serve`) over asking its upstream directly.
//   serve_overhead_bench PROXY_PORT UPSTREAM_URL [--requests N] [--max-k K] [--batched]
// UPSTREAM_URL answers {"text"} with {"scores": [...]} and {"texts"} with {"scores": [[...]]}
// (labels neg, pos), e.g. tests/data/models/sklearn_server.py --http. For sentences whose
// classes have neighbourhoods of k = 0 … 16 perturbations (capped at --max-k, which must be the
// proxy's), N sequential requests of:
//   proxy    POST /predict to the proxy (find the class, perturb its representative, ask the
//            text and the neighbourhood, smooth)
//   direct   the same texts (the text, the representative, its k perturbations, each distinct
//            one once) asked of the upstream directly: concurrently (the http: adapter with one
//            connection a text), or with --batched in one request {"texts"} (as the proxy asks
//            an upstream that takes batches): what the proxy cannot avoid
//   one      x0 alone asked of the upstream (what a client without the layer pays)
// Prints p50 and p99 of each (ms) and overhead = p50(proxy) − p50(direct).
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fairness/perturbator.h"
#include "fairness/perturbator_resources.h"
#include "models/http_model.h"

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}
}  // namespace

int main(int argc, char** argv) {
  using namespace assay;
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: serve_overhead_bench PROXY_PORT UPSTREAM_URL [--requests N] "
                 "[--max-k K]\n");
    return 2;
  }
  const int proxy_port = std::atoi(argv[1]);
  const std::string upstream = argv[2];
  std::size_t n = 200, max_k = 16;
  bool batched = false;
  for (int i = 3; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "--batched") {
      batched = true;
    } else if (i + 1 < argc && k == "--requests") {
      n = std::strtoull(argv[++i], nullptr, 10);
    } else if (i + 1 < argc && k == "--max-k") {
      max_k = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "serve_overhead_bench: unknown argument '%s'\n", k.c_str());
      return 2;
    }
  }
  const auto resources = fairness::PerturbatorResources::load();
  const fairness::Perturbator perturbator(resources, fairness::gender_attribute());
  const std::vector<std::string> sentences = {
      "The film was long and the plot was thin.",
      "The actor was wonderful.",
      "The actor and the waiter were wonderful.",
      "The actor, the waiter and the teacher were wonderful.",
      "The actor, the waiter, the teacher and the lawyer were wonderful, said the director.",
      "The actor, the waiter, the teacher, the lawyer, the doctor and the nurse were wonderful, "
      "said the director to the writer.",
  };
  httplib::Client proxy("127.0.0.1", proxy_port);
  proxy.set_keep_alive(true);
  proxy.set_tcp_nodelay(true);
  proxy.set_read_timeout(60, 0);
  std::printf("%-4s %9s %9s %9s %9s %9s %9s %12s\n", "k", "proxy_p50", "proxy_p99", "direct_p50",
              "direct_p99", "one_p50", "one_p99", "overhead_p50");
  for (const auto& s : sentences) {
    // What the proxy asks: the text, its class's representative and the representative's first
    // max_k perturbations, each distinct text once (neutral_class.h).
    const std::string representative = perturbator.neutral_form(s);
    const auto set = perturbator.perturb(representative);
    std::vector<std::string> texts{s};
    if (representative != s) texts.push_back(representative);
    const std::size_t k = std::min(max_k, set.perturbations.size());
    for (std::size_t i = 0; i < k; ++i) {
      if (set.perturbations[i].text != s) texts.push_back(set.perturbations[i].text);
    }
    models::ModelOptions mo;
    mo.labels = {"neg", "pos"};
    mo.http.scores_pointer = "/scores";
    mo.http.concurrency = batched ? 1 : static_cast<int>(texts.size());
    if (batched) mo.http.body_template = R"({"texts": {texts}})";
    models::HttpModel direct(upstream, mo);
    mo.http.concurrency = 1;
    mo.http.body_template = models::HttpModelOptions{}.body_template;
    models::HttpModel one(upstream, mo);
    const std::string body = nlohmann::json{{"text", s}}.dump();
    std::vector<double> tp, td, t1;
    for (std::size_t r = 0; r < n + 10; ++r) {  // the first 10 warm connections and caches
      auto t = Clock::now();
      const auto res = proxy.Post("/predict", body, "application/json");
      const double a = ms_since(t);
      if (!res || res->status != 200) {
        std::fprintf(stderr, "proxy failed: %s\n", res ? res->body.c_str() : "no answer");
        return 1;
      }
      const auto j = nlohmann::json::parse(res->body);
      if (j["certificate"]["k"] != k) {
        std::fprintf(stderr, "proxy k %s, expected %zu (same --max-k?)\n",
                     j["certificate"]["k"].dump().c_str(), k);
        return 1;
      }
      t = Clock::now();
      (void)direct.predict(texts);
      const double b = ms_since(t);
      t = Clock::now();
      (void)one.predict({s});
      const double c = ms_since(t);
      if (r >= 10) {
        tp.push_back(a);
        td.push_back(b);
        t1.push_back(c);
      }
    }
    std::printf("%-4zu %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %12.2f\n", k, quantile(tp, 0.5),
                quantile(tp, 0.99), quantile(td, 0.5), quantile(td, 0.99), quantile(t1, 0.5),
                quantile(t1, 0.99), quantile(tp, 0.5) - quantile(td, 0.5));
  }
  return 0;
}
