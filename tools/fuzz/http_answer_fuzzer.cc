// libFuzzer target: what an `http:` model's server answers (models::HttpModel: the JSON found at
// the scores pointer, arrays of numbers, {"label", "score"} objects, {name: score} objects, flat
// [n × labels] tensors, nesting, answer lengths). A real HTTP server on 127.0.0.1, started once
// per process, answers every POST with the input's bytes (status 200); the model asks it for two
// texts. The first byte picks the request: bit 0, one request for the batch ({texts}) rather
// than one per text; bit 1, the scores at /outputs/0/data rather than the whole body; bit 2, a
// label map instead of plain labels. Findings beyond the usual: an answer accepted with the
// wrong number of scores or a score that is not finite.
// Run: tools/fuzz/run.sh http_answer
#include <httplib.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "models/http_model.h"

namespace am = assay::models;

namespace {

// The server of this process: answers each POST with the current input.
struct AnswerServer {
  httplib::Server server;
  std::mutex mutex;
  std::string answer;
  int port = 0;
  std::thread thread;

  AnswerServer() {
    server.Post(".*", [this](const httplib::Request&, httplib::Response& res) {
      std::lock_guard lock(mutex);
      res.set_content(answer, "application/json");
    });
    port = server.bind_to_any_port("127.0.0.1");
    if (port <= 0) std::abort();
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~AnswerServer() {
    server.stop();
    thread.join();
  }
};

AnswerServer& answer_server() {
  static AnswerServer s;
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  AnswerServer& s = answer_server();
  {
    std::lock_guard lock(s.mutex);
    s.answer.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  }
  am::ModelOptions options;
  options.timeout_seconds = 5;
  options.http.max_retries = 0;
  options.http.concurrency = 1;
  options.http.max_answer_bytes = 1 << 16;
  if ((data[0] & 1) != 0) options.http.body_template = R"({"texts": {texts}})";
  if ((data[0] & 2) != 0) options.http.scores_pointer = "/outputs/0/data";
  if ((data[0] & 4) != 0)
    options.http.label_map = "NEGATIVE=neg,POSITIVE=pos";
  else
    options.labels = {"neg", "pos"};
  try {
    am::HttpModel model("http://127.0.0.1:" + std::to_string(s.port) + "/predict", options);
    const auto scores = model.predict({"the king is here", "she is a queen"});
    const std::size_t n_labels = model.labels().size();
    if (scores.size() != 2 || n_labels != 2) std::abort();
    for (const auto& row : scores) {
      if (row.size() != n_labels) std::abort();
      for (const double x : row) {
        if (!std::isfinite(x)) std::abort();
      }
    }
  } catch (const assay::core::Error&) {
  }
  return 0;
}
