// The model behind the neutral layer's HTTP proxy (`assay fair serve`, NeutralService's
// upstream), opened once: its adapter options, behind the answer cache when one is given (one
// cache shared by every model the factory makes), and, for an http: upstream, whether it takes
// a request's texts in one request — a KServe v2 URL always, a {texts} template, or (when no
// body template was given) a server that answers the probe {"texts": [two texts]} with one
// answer per text, which is then asked with that body.
#pragma once

#include <cstddef>
#include <string>

#include "fairness/neutral_service.h"
#include "models/model_spec.h"

namespace assay::fairness {

struct NeutralUpstreamConfig {
  std::string spec;            // lr:FILE, cmd:..., http:URL, ...
  models::ModelOptions model;  // the adapter's options
  std::string cache;           // the answer cache's file ("" none)
  std::size_t batch = 64;      // texts per call to the upstream behind the cache
  bool probe_batches = true;   // try an http: upstream without a batch template with {"texts"}
};

struct NeutralUpstream {
  ModelFactory factory;  // its first call returns the model opened here, later ones new ones
  std::string name;      // the upstream's Open Inference Protocol model name ("" none)
  bool batched = false;  // asked one request per proxy request (else one per text)
};

// Opens the upstream (and probes it, as above). Throws the errors of models::open_model and of
// the answer cache.
NeutralUpstream open_neutral_upstream(NeutralUpstreamConfig config);

}  // namespace assay::fairness
