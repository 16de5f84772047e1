#include "fairness/neutral_upstream.h"

#include <exception>
#include <memory>
#include <utility>

#include "models/answer_cache.h"
#include "models/cached_model.h"
#include "models/http_model.h"

namespace assay::fairness {
namespace {

// The batch body tried on an http: upstream given no body template.
constexpr const char* kBatchBody = R"({"texts": {texts}})";

}  // namespace

NeutralUpstream open_neutral_upstream(NeutralUpstreamConfig config) {
  NeutralUpstream out;
  auto& mo = config.model;
  if (config.spec.rfind("http", 0) == 0) {  // http:URL, http://…, https://…
    auto probe = models::open_model(config.spec, mo);
    if (auto* http = dynamic_cast<models::HttpModel*>(probe.get())) {
      out.batched = http->batched();
      if (auto name = models::open_inference_model(http->path())) out.name = *name;
      if (!out.batched && config.probe_batches) {
        auto bo = mo;
        bo.http.body_template = kBatchBody;
        bo.http.max_retries = 0;
        try {
          models::HttpModel b(http->url(), bo);
          (void)b.predict({"This is a test.", "This is another test."});
          mo.http.body_template = kBatchBody;
          out.batched = true;
        } catch (const std::exception&) {
          // One text per request, as the template says.
        }
      }
    }
  }
  std::shared_ptr<models::AnswerCache> cache;
  if (!config.cache.empty()) cache = std::make_shared<models::AnswerCache>(config.cache);
  models::CachedModelOptions co;
  co.batch_size = config.batch;
  auto make = [spec = config.spec, mo, cache, co] {
    return models::open_model_with_cache(spec, mo, cache, co);
  };
  // The first model now: the spec is checked before anything else loads.
  auto first = std::make_shared<std::unique_ptr<models::Model>>(make());
  out.factory = [first, make]() -> std::unique_ptr<models::Model> {
    if (*first) return std::move(*first);
    return make();
  };
  return out;
}

}  // namespace assay::fairness
