// The request bodies the neutral-layer proxy (neutral_service.h) accepts and how it answers
// each, so that clients keep sending what they already send:
//
//   POST /predict or /   {"text": "..."}           → {"label", "scores", "labels",
//                                                      "certificate": {"epsilon", "k"},
//                                                      "upstream_label", "upstream_scores"}
//                        {"texts": ["...", ...]}   → [ the same, one per text ]
//                        {"inputs": "..."}          → [[{"label", "score"}, ...]]   (Hugging
//                        {"inputs": ["...", ...]}   → [[...], [...], ...]            Face JSON)
//   POST /v2/models/NAME/infer  (KServe v2 / Open Inference Protocol) one input tensor of
//                        datatype BYTES (shape [n] or [n, 1]) → outputs "scores" (FP64, [n, L]),
//                        "label" (BYTES, [n]), "certificate_k" (INT64, [n]),
//                        "upstream_scores" (FP64, [n, L]); "id" echoed; parameters.epsilon.
//
// Hugging Face answers list every label by descending score, as its text-classification
// pipeline does with all scores; the certificate goes in the headers X-Assay-Epsilon and
// X-Assay-K (one k per text, comma-separated). Every other top-level field of a request
// ("parameters", "id", anything a client adds) is a request field: the proxy forwards it to the
// upstream (models::HttpModel::set_request_fields).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "fairness/neutral_service.h"

namespace assay::fairness {

enum class RequestForm { kText, kTexts, kInputs, kInputsList, kOpenInference };

struct ServeRequest {
  RequestForm form = RequestForm::kText;
  std::vector<std::string> texts;                    // at least one
  nlohmann::json fields = nlohmann::json::object();  // the request fields, for the upstream
  nlohmann::json id;                                 // Open Inference: the request's "id"
};

// The body of POST /predict or POST /. Throws core::ParseError saying what was expected (the
// caller answers 400).
ServeRequest parse_predict_request(std::string_view body);
// The body of POST /v2/models/NAME/infer. Throws core::ParseError as above.
ServeRequest parse_infer_request(std::string_view body);

// The answer body for `request`, one answer per text in order.
std::string answer_body(const ServeRequest& request, const std::vector<NeutralAnswer>& answers,
                        const std::vector<std::string>& labels, const std::string& model_name);

// Throws core::UsageError naming --model-name unless `name` can be NAME in /v2/models/NAME
// (non-empty, no '/', '?', '#' or blanks).
void check_model_name(const std::string& name);

// The Open Inference Protocol's model metadata (GET /v2/models/NAME).
std::string model_metadata(const std::string& model_name, const std::vector<std::string>& labels,
                           double epsilon, std::size_t max_k);

}  // namespace assay::fairness
