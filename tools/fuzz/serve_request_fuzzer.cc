// libFuzzer target: the request bodies of `assay fair serve` (fairness::parse_predict_request:
// {"text"}, {"texts"}, {"inputs"} in both forms; fairness::parse_infer_request: KServe v2 / Open
// Inference tensors) and the answer written for a parsed request (fairness::answer_body, which
// echoes the request's "id" and fields). The first byte picks the protocol; the rest is the
// body. Findings beyond the usual: a parsed request with no text, or an answer that is not JSON.
// Run: tools/fuzz/run.sh serve_request
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "fairness/serving_protocols.h"
#include "fuzz_input.h"

namespace fa = assay::fairness;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool infer = (data[0] & 1) != 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const fa::ServeRequest request =
        infer ? fa::parse_infer_request(body) : fa::parse_predict_request(body);
    if (request.texts.empty()) std::abort();
    if (request.texts.size() > 64) return 0;  // answers are built per text: keep inputs quick
    const std::vector<std::string> labels = {"neg", "pos"};
    std::vector<fa::NeutralAnswer> answers(request.texts.size());
    for (auto& a : answers) {
      a.scores = {0.25, 0.75};
      a.label = 1;
      a.upstream_scores = {0.5, 0.5};
      a.reference = {0.5, 0.5};
    }
    const std::string answer = fa::answer_body(request, answers, labels, "m");
    if (!nlohmann::json::accept(answer)) std::abort();
  } catch (const assay::core::Error&) {
  }
  return 0;
}
