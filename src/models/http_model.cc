#include "models/http_model.h"

// httplib.h instantiates std::regex, in which GCC 12 sees a false maybe-uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <httplib.h>
#pragma GCC diagnostic pop

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <random>
#include <system_error>
#include <thread>

#include "core/error.h"
#include "core/interrupt.h"
#include "core/json_depth.h"
#include "models/label_map.h"
#include "models/model_error.h"

namespace assay::models {
namespace {

std::string shorten(std::string_view s) {
  constexpr std::size_t kMax = 200;
  return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
}

std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Expands ${VAR} from the environment. The value is never put in a message.
std::string expand_environment(const std::string& value, const std::string& header_name) {
  std::string out;
  std::size_t i = 0;
  while (i < value.size()) {
    if (value.compare(i, 2, "${") == 0) {
      const std::size_t close = value.find('}', i + 2);
      if (close == std::string::npos) {
        throw core::UsageError("header '" + header_name + "': unclosed ${ in its value");
      }
      const std::string name = value.substr(i + 2, close - i - 2);
      const char* v = std::getenv(name.c_str());
      if (!v) {
        throw core::UsageError("header '" + header_name + "' uses ${" + name +
                               "}, which is not set in the environment");
      }
      out += v;
      i = close + 1;
    } else {
      out += value[i++];
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> open_inference_model(const std::string& path) {
  // /v2/models/NAME/infer or /v2/models/NAME/versions/VERSION/infer, then ?query or #fragment.
  std::vector<std::string> parts;
  const std::string p = path.substr(0, std::min(path.find_first_of("?#"), path.size()));
  for (std::size_t start = 1; start <= p.size();) {
    const std::size_t stop = std::min(p.find('/', start), p.size());
    parts.push_back(p.substr(start, stop - start));
    start = stop + 1;
  }
  const bool plain = parts.size() == 4;
  const bool versioned = parts.size() == 6 && parts[3] == "versions" && !parts[4].empty();
  if ((!plain && !versioned) || parts[0] != "v2" || parts[1] != "models" || parts[2].empty() ||
      parts.back() != "infer")
    return std::nullopt;
  return parts[2];
}

struct HttpModel::Connection {
  std::unique_ptr<httplib::Client> client;
  std::mt19937_64 rng{std::random_device{}()};
};

HttpModel::HttpModel(const std::string& url, const ModelOptions& options)
    : url_(url), options_(options) {
  const std::size_t scheme_end = url_.find("://");
  const std::string scheme = scheme_end == std::string::npos ? "" : url_.substr(0, scheme_end);
  const std::size_t host_begin = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const std::size_t host_end = std::min(url_.find_first_of("/?#", host_begin), url_.size());
  if ((scheme != "http" && scheme != "https") || host_end == host_begin) {
    throw core::UsageError("model spec http: needs a URL like http://host:port/path, got '" + url_ +
                           "'");
  }
  scheme_host_port_ = url_.substr(0, host_end);
  path_ = host_end < url_.size() ? url_.substr(host_end) : "/";
  if (path_[0] != '/') path_ = "/" + path_;
  if (open_inference_model(path_)) {
    // KServe v2 / Open Inference Protocol: one BYTES tensor of the batch's texts, the scores in
    // the first output tensor (shape [n, labels]), unless the options say otherwise.
    if (options_.http.body_template == HttpModelOptions{}.body_template)
      options_.http.body_template = kOpenInferenceBody;
    if (options_.http.scores_pointer.empty()) options_.http.scores_pointer = "/outputs/0/data";
  }
  const auto& http = options_.http;
  const bool one = http.body_template.find("{text}") != std::string::npos;
  batch_template_ = http.body_template.find("{texts}") != std::string::npos;
  if (one == batch_template_) {
    throw core::UsageError(
        "--body-template must hold exactly one of {text} (one request per "
        "text) and {texts} (one request per batch), got '" +
        http.body_template + "'");
  }
  try {
    (void)nlohmann::json::json_pointer(http.scores_pointer);
  } catch (const nlohmann::json::exception& e) {
    throw core::UsageError("--scores-pointer '" + http.scores_pointer +
                           "' is not a JSON pointer (RFC 6901, e.g. /scores or /0): " + e.what());
  }
  for (const auto& header : http.headers) {
    const std::size_t colon = header.find(':');
    if (colon == std::string::npos || colon == 0) {
      throw core::UsageError("--header must look like 'Name: value'");  // no value in the message
    }
    const std::string name = header.substr(0, colon);
    std::string value = header.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    headers_.emplace_back(name, expand_environment(value, name));
  }
  const LabelMap map = LabelMap::parse(http.label_map);
  if (!map.empty()) {
    labels_ = map.labels();
    for (const auto& [name, label] : map.entries()) {
      answer_names_.push_back(name);
      answer_labels_.push_back(static_cast<std::size_t>(
          std::find(labels_.begin(), labels_.end(), label) - labels_.begin()));
    }
    if (!options_.labels.empty() && options_.labels != labels_) {
      throw core::UsageError("the labels given and the label map name different labels");
    }
  } else if (!options_.labels.empty()) {
    labels_ = options_.labels;
    answer_names_ = labels_;
    for (std::size_t k = 0; k < labels_.size(); ++k) answer_labels_.push_back(k);
  } else {
    throw core::UsageError(
        "an http: model needs its labels (the order of its scores) or a label map (for "
        "answers given as {label, score} objects)");
  }
  if (http.concurrency < 1) throw core::UsageError("--concurrency must be at least 1");
  if (http.max_retries < 0) throw core::UsageError("--retries must not be negative");
  nlohmann::json id;
  id["url"] = url_;
  id["body"] = http.body_template;
  id["pointer"] = http.scores_pointer;
  id["labels"] = labels_;
  id["answer_labels"] = answer_names_;
  identity_ = "http:" + id.dump();
  const double t = options_.timeout_seconds;
  const auto sec = static_cast<time_t>(t);
  const auto usec = static_cast<time_t>((t - static_cast<double>(sec)) * 1e6);
  for (int i = 0; i < http.concurrency; ++i) {
    auto c = std::make_unique<Connection>();
    c->client = std::make_unique<httplib::Client>(scheme_host_port_);
    c->client->set_connection_timeout(sec, usec);
    c->client->set_read_timeout(sec, usec);
    c->client->set_write_timeout(sec, usec);
    c->client->set_keep_alive(true);
    c->client->set_tcp_nodelay(true);  // headers and body go in separate writes
    if (scheme_host_port_.rfind("https://", 0) == 0) {
      c->client->enable_server_certificate_verification(true);
      if (!http.ca_file.empty()) c->client->set_ca_cert_path(http.ca_file);
    }
    connections_.push_back(std::move(c));
  }
}

HttpModel::~HttpModel() = default;

void HttpModel::set_request_fields(nlohmann::json fields) {
  if (!fields.is_null() && !fields.is_object())
    throw core::UsageError("the request fields of an http: model must be a JSON object");
  request_fields_ = fields.is_null() ? nlohmann::json::object() : std::move(fields);
}

std::string HttpModel::with_request_fields(const std::string& body) const {
  if (request_fields_.empty()) return body;
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object()) {
    throw ModelError("http: " + url_ +
                     ": request fields can only be added to a body that is a "
                     "JSON object (--body-template), got '" +
                     shorten(body) + "'");
  }
  for (const auto& [name, value] : request_fields_.items()) {
    if (!j.contains(name)) j[name] = value;
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void HttpModel::cancel() {
  cancelled_ = true;
  for (auto& c : connections_) c->client->stop();  // a request in flight fails at once
}

std::string HttpModel::post(Connection& connection, const std::string& body, std::size_t index) {
  httplib::Headers headers;
  for (const auto& [name, value] : headers_) headers.emplace(name, value);
  const int max_retries = options_.http.max_retries;
  const std::size_t limit = options_.http.max_answer_bytes;
  for (int attempt = 0;; ++attempt) {
    // The answer is taken as it arrives, so one over the limit (chunked or not, whatever its
    // Content-Length says) is refused before it is read whole.
    std::string answer;
    bool too_long = false;
    httplib::Request request;
    request.method = "POST";
    request.path = path_;
    request.headers = headers;
    request.set_header("Content-Type", "application/json");
    request.body = body;
    request.content_receiver = [&](const char* data, std::size_t n, std::uint64_t, std::uint64_t) {
      if (n > limit - answer.size()) {
        too_long = true;
        return false;
      }
      answer.append(data, n);
      return true;
    };
    if (cancelled_)
      throw ModelError("http: " + url_ + ": cancelled (the caller was interrupted)", index);
    auto res = connection.client->send(request);
    if (cancelled_)
      throw ModelError("http: " + url_ + ": cancelled (the caller was interrupted)", index);
    if (too_long) {
      connection.client->stop();
      throw ModelError("http: " + url_ + ": an answer longer than the limit of " +
                           std::to_string(limit) + " bytes (expected a JSON answer of scores)",
                       index);
    }
    std::string what;
    double wait = -1;
    if (!res && (res.error() == httplib::Error::SSLServerVerification ||
                 res.error() == httplib::Error::SSLLoadingCerts)) {
      throw ModelError("http: " + url_ + ": the server's certificate did not verify (" +
                           httplib::to_string(res.error()) +
                           "; give its CA certificate with --ca-file)",
                       index);
    }
    if (!res) {
      what = "no complete answer (" + httplib::to_string(res.error()) + ")";
    } else if (res->status >= 200 && res->status < 300) {
      return answer;
    } else if (res->status == 429 || res->status >= 500) {
      what = "HTTP status " + std::to_string(res->status);
      if (res->has_header("Retry-After")) {
        const std::string v = res->get_header_value("Retry-After");
        char* end = nullptr;
        const double seconds = std::strtod(v.c_str(), &end);
        // Never longer than --timeout: a server cannot hold the run for hours.
        if (end != v.c_str() && std::isfinite(seconds) && seconds >= 0)
          wait = std::min(seconds, options_.timeout_seconds);
      }
    } else {
      throw ModelError("http: " + url_ + ": HTTP status " + std::to_string(res->status) +
                           " (expected 2xx): '" + shorten(answer) + "'",
                       index);
    }
    if (attempt >= max_retries) {
      throw ModelError("http: " + url_ + ": " + what + " after " + std::to_string(attempt) +
                           " retr" + (attempt == 1 ? "y" : "ies") +
                           " (expected a 2xx answer; after the retries and within the timeout)",
                       index);
    }
    if (wait < 0) {
      std::uniform_real_distribution<double> jitter(0.5, 1.0);
      wait = options_.http.backoff_seconds * std::ldexp(1.0, attempt) * jitter(connection.rng);
    }
    ++n_retries_;
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    if (!res) connection.client->stop();  // a fresh connection for the retry
  }
}

std::vector<double> HttpModel::scores_from(const nlohmann::json& answer, std::size_t index) const {
  auto fail = [&](const std::string& what) {
    throw ModelError("http: " + url_ + ": " + what + ", got '" + shorten(answer.dump()) + "'",
                     index);
  };
  const std::string expected = "expected an array of " + std::to_string(labels_.size()) +
                               " numbers, of {\"label\", \"score\"} objects or an object "
                               "{label: score}";
  std::vector<double> scores(labels_.size(), 0.0);
  std::vector<bool> seen(labels_.size(), false);
  // A score given by name (in {label, score} objects, or as an object {name: score}).
  auto named = [&](const std::string& name, const nlohmann::json& score) {
    if (!score.is_number()) fail(expected);
    const auto it = std::find(answer_names_.begin(), answer_names_.end(), name);
    if (it == answer_names_.end())
      fail("label '" + name + "' is not in the label map or the labels given");
    const std::size_t k = answer_labels_[static_cast<std::size_t>(it - answer_names_.begin())];
    if (seen[k]) fail("two scores for label '" + labels_[k] + "'");
    scores[k] = score.get<double>();
    seen[k] = true;
  };
  if (answer.is_object() && !answer.empty()) {
    for (const auto& [name, score] : answer.items()) named(name, score);
  } else if (!answer.is_array() || answer.empty()) {
    fail(expected);
  } else if (answer[0].is_number()) {
    if (answer.size() != labels_.size()) {
      fail("expected " + std::to_string(labels_.size()) + " scores (one per label)");
    }
    for (std::size_t i = 0; i < answer.size(); ++i) {
      if (!answer[i].is_number()) fail(expected);
      scores[i] = answer[i].get<double>();
      seen[i] = true;
    }
  } else {
    for (const auto& item : answer) {
      if (!item.is_object() || !item.contains("label") || !item.contains("score") ||
          !item["label"].is_string()) {
        fail(expected);
      }
      named(item["label"].get<std::string>(), item["score"]);
    }
  }
  for (std::size_t k = 0; k < seen.size(); ++k) {
    if (!seen[k]) fail("no score for label '" + labels_[k] + "'");
  }
  for (double s : scores) {
    if (!std::isfinite(s)) fail("expected finite scores");
  }
  return scores;
}

std::vector<std::vector<double>> HttpModel::predict(const std::vector<std::string>& texts) {
  std::vector<std::vector<double>> out(texts.size());
  if (texts.empty()) return out;
  cancelled_ = false;
  const nlohmann::json::json_pointer pointer(options_.http.scores_pointer);
  auto parse = [&](const std::string& body, std::size_t index) {
    if (core::json_nests_deeper(body)) {
      throw ModelError("http: " + url_ + ": the answer " + core::json_too_deep_reason(), index);
    }
    nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded()) {
      throw ModelError("http: " + url_ + ": the answer is not JSON: '" + shorten(body) + "'",
                       index);
    }
    if (!j.contains(pointer)) {
      throw ModelError("http: " + url_ + ": no value at --scores-pointer '" +
                           options_.http.scores_pointer + "' in the answer '" + shorten(body) + "'",
                       index);
    }
    return j.at(pointer);
  };
  if (batch_template_) {
    std::string body = options_.http.body_template;
    nlohmann::json array = texts;
    replace_all(body, "{texts}",
                array.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    replace_all(body, "{n}", std::to_string(texts.size()));
    auto answers = parse(post(*connections_[0], with_request_fields(body), 0), 0);
    // A flat array of n × labels numbers (a tensor of shape [n, labels]) is read row by row.
    const std::size_t n_labels = labels_.size();
    if (answers.is_array() && answers.size() == texts.size() * n_labels && !answers.empty() &&
        answers[0].is_number() && (n_labels > 1 || texts.size() == 1)) {
      nlohmann::json rows = nlohmann::json::array();
      for (std::size_t i = 0; i < texts.size(); ++i) {
        nlohmann::json row = nlohmann::json::array();
        for (std::size_t c = 0; c < n_labels; ++c) row.push_back(answers[i * n_labels + c]);
        rows.push_back(std::move(row));
      }
      answers = std::move(rows);
    }
    if (!answers.is_array() || answers.size() != texts.size()) {
      throw ModelError("http: " + url_ + ": expected an array of " + std::to_string(texts.size()) +
                       " answers (one per text of the batch) at --scores-pointer '" +
                       options_.http.scores_pointer + "', got '" + shorten(answers.dump()) + "'");
    }
    for (std::size_t i = 0; i < texts.size(); ++i) out[i] = scores_from(answers[i], i);
    return out;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<char> answered(texts.size(), 0);
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](Connection& connection) {
    for (;;) {
      if (failed || core::interrupt_pending()) return;  // an interrupt: keep what came
      const std::size_t i = next++;
      if (i >= texts.size()) return;
      try {
        std::string body = options_.http.body_template;
        replace_all(body, "{text}", json_string(texts[i]));
        out[i] = scores_from(parse(post(connection, with_request_fields(body), i), i), i);
        answered[i] = 1;
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
        return;
      }
    }
  };
  const std::size_t n_workers = std::min(connections_.size(), texts.size());
  if (n_workers == 1) {
    work(*connections_[0]);
  } else {
    std::vector<std::thread> workers;
    try {
      for (std::size_t w = 0; w < n_workers; ++w)
        workers.emplace_back(work, std::ref(*connections_[w]));
    } catch (const std::system_error&) {  // the machine's limit: the threads started do the work
      if (workers.empty()) work(*connections_[0]);
    }
    for (auto& t : workers) t.join();
  }
  if (error) std::rethrow_exception(error);
  if (core::interrupt_pending()) {
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (!answered[i]) out[i].clear();
    }
    throw InterruptedBatch(std::move(out));  // the answers received, kept by the cache
  }
  return out;
}

}  // namespace assay::models
