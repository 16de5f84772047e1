// HttpModel (`http:URL`, or a bare http:// or https:// URL): a model behind an HTTP(S) JSON
// endpoint — a hosted classifier or a model server.
//
// Each request is a POST of `body_template` with {text} replaced by the text as a JSON string
// (one request per text, `concurrency` in parallel over persistent connections) or {texts} by
// a JSON array of the batch and {n} by its size (one request per predict() call). The scores
// are found in the response at the JSON pointer `scores_pointer` (RFC 6901; empty = the whole
// body) — for {texts}, an array with one entry per text, or a flat array of n × labels numbers
// (a tensor of shape [n, labels]) read row by row. An answer is an array of numbers in label
// order, an array of {"label": name, "score": x} objects (hosted classifiers) or an object
// {name: x, ...} (TorchServe handlers), the last two put in label order by name: `label_map`
// ("NEGATIVE=neg,POSITIVE=pos", see label_map.h) renames and orders them (its labels, each
// once, in order of first entry), otherwise ModelOptions::labels are the names. One of the two
// is required.
//
// A URL whose path is /v2/models/NAME/infer (or …/versions/V/infer) speaks the KServe v2 /
// Open Inference Protocol unless the options say otherwise: the default body becomes
// kOpenInferenceBody (one BYTES tensor "text" of shape [n]) and the default pointer
// /outputs/0/data (the first output tensor, shape [n, labels]).
//
// Request fields (set_request_fields) are added to every request body that is a JSON object,
// beside the fields the template already has (which win).
//
// Failures: 429, 5xx, connection errors, time-outs and bodies cut short are retried up to
// `max_retries` times after an exponential back-off (backoff_seconds · 2^attempt, jittered in
// [½, 1]×) or, when the server sends Retry-After (seconds), after that long but never longer
// than ModelOptions::timeout_seconds. Other statuses and answers of the wrong shape are
// ModelErrors at once, naming the adapter (the URL), the text's position in the batch and what
// was expected. An answer body over `max_answer_bytes` (16 MiB), chunked or not, is a ModelError
// as soon as that many bytes have arrived: it is never held whole.
//
// Headers ("Name: value", ${VAR} expanded from the environment when the adapter is made) are
// sent with every request and never appear in identity(), error messages or the cache.
// HTTPS verifies the server's certificate against the system store (and `ca_file`); there is no
// switch to turn verification off.
//
// identity(): "http:" + URL, template, pointer and labels (not the headers).
#pragma once

#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/model.h"
#include "models/model_spec.h"

namespace httplib {
class Client;
}

namespace assay::models {

// The body of a KServe v2 / Open Inference Protocol request for a batch of texts.
inline constexpr const char* kOpenInferenceBody =
    R"({"inputs": [{"name": "text", "shape": [{n}], "datatype": "BYTES", "data": {texts}}]})";

// NAME when `path` is /v2/models/NAME/infer or /v2/models/NAME/versions/V/infer (an Open
// Inference Protocol endpoint), otherwise nullopt.
std::optional<std::string> open_inference_model(const std::string& path);

class HttpModel : public Model {
 public:
  // `url` starts with http:// or https://. Throws core::UsageError for a bad URL, template,
  // header or missing environment variable.
  HttpModel(const std::string& url, const ModelOptions& options);
  ~HttpModel() override;

  std::vector<std::vector<double>> predict(const std::vector<std::string>& texts) override;
  const std::vector<std::string>& labels() const override { return labels_; }
  std::string identity() const override { return identity_; }
  void cancel() override;

  // Top-level fields (a JSON object; null: none) added to every request from now on, e.g. a
  // client's "parameters". Throws core::UsageError for a value that is not an object.
  void set_request_fields(nlohmann::json fields);
  // Whether one request carries the whole batch ({texts} in the body).
  bool batched() const { return batch_template_; }
  const std::string& url() const { return url_; }
  const std::string& path() const { return path_; }

  // Requests retried so far (for tests and reports).
  std::uint64_t n_retries() const { return n_retries_.load(); }

 private:
  struct Connection;
  // POSTs `body`, retrying as the contract says; returns the response body. `index` is the
  // batch position named in errors.
  std::string post(Connection& connection, const std::string& body, std::size_t index);
  // The score vector of one answer (numbers, or {label, score} objects) in label order.
  std::vector<double> scores_from(const nlohmann::json& answer, std::size_t index) const;
  // `body` with the request fields added.
  std::string with_request_fields(const std::string& body) const;

  std::string url_;
  std::string scheme_host_port_;
  std::string path_;
  ModelOptions options_;
  std::vector<std::pair<std::string, std::string>> headers_;
  std::vector<std::string> labels_;
  std::vector<std::string> answer_names_;   // names answers may give (label map or labels)
  std::vector<std::size_t> answer_labels_;  // the label each of them stands for
  bool batch_template_ = false;
  nlohmann::json request_fields_ = nlohmann::json::object();
  std::string identity_;
  std::vector<std::unique_ptr<Connection>> connections_;
  std::atomic<std::uint64_t> n_retries_{0};
  std::atomic<bool> cancelled_{false};
};

}  // namespace assay::models
