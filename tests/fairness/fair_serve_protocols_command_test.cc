// `assay fair serve` as a real process speaking what clients already send — batches, the
// Hugging Face JSON, KServe v2 / Open Inference — in front of the built-in LR (answers equal
// the neutral layer computed here), and in front of the scikit-learn model served the way
// KServe, a Hugging Face endpoint and TorchServe serve it (examples/serving, the worked example
// of docs/fairness.md): answers equal the layer over the upstream asked directly, a batched
// upstream gets one request per proxy request, request fields reach the upstream.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "biased_lr.h"
#include "fairness/neutral_layer.h"
#include "fairness/neutral_service.h"
#include "fairness/perturbator.h"
#include "fairness_test_support.h"
#include "models/http_model.h"
#include "models/lr_model.h"
#include "models/server_process.h"
#include "serve_process.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::TempDir;
using ::testing::HasSubstr;
using testing::ServeProcess;
using testing::words;
using json = nlohmann::json;

const std::string kExamples = std::string(ASSAY_TEST_DATA_DIR) + "/../../examples/serving";

httplib::Client client(int port) {
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(30, 0);
  c.set_keep_alive(true);
  c.set_tcp_nodelay(true);
  return c;
}

json post(httplib::Client& c, const std::string& path, const json& body, int expected_status,
          httplib::Headers* headers = nullptr) {
  const auto res = c.Post(path, body.dump(), "application/json");
  EXPECT_TRUE(res) << path;
  if (!res) return {};
  EXPECT_EQ(res->status, expected_status) << path << " " << body.dump() << ": " << res->body;
  if (headers) *headers = res->headers;
  return json::parse(res->body, nullptr, false);
}

json v2_body(const std::vector<std::string>& texts) {
  return {
      {"id", "req-7"},
      {"inputs",
       {{{"name", "text"}, {"shape", {texts.size()}}, {"datatype", "BYTES"}, {"data", texts}}}}};
}

// The layer over `model`, computed in this process: the perturbator with the default options,
// its representative's first max_k perturbations, class_smooth (testing::expected_neutral).
struct Expected {
  std::vector<double> scores;
  std::size_t label = 0;
  std::size_t k = 0;
};
const Perturbator& default_perturbator() {
  static const Perturbator perturbator(testing::default_resources(), gender_attribute());
  return perturbator;
}
Expected expected_answer(models::Model& model, const std::string& text, double epsilon,
                         std::size_t max_k) {
  const auto e = testing::expected_neutral(default_perturbator(), model, text, epsilon, max_k);
  return {e.scores, e.label, e.k};
}
// The distinct texts the proxy asks for `texts`: each text, its representative and the first
// max_k perturbations of the representative.
std::size_t distinct_texts_asked(const std::vector<std::string>& texts, std::size_t max_k) {
  std::set<std::string> asked;
  for (const auto& t : texts) {
    asked.insert(t);
    const std::string r = default_perturbator().neutral_form(t);
    asked.insert(r);
    const auto set = default_perturbator().perturb(r);
    for (std::size_t i = 0; i < std::min(max_k, set.perturbations.size()); ++i)
      asked.insert(set.perturbations[i].text);
  }
  return asked.size();
}

// Every answer form against `expected` (labels neg, pos).
void expect_plain(const json& j, const Expected& e, const std::string& text) {
  EXPECT_EQ(j["scores"].get<std::vector<double>>(), e.scores) << text;
  EXPECT_EQ(j["label"], e.label == 0 ? "neg" : "pos") << text;
  EXPECT_EQ(j["certificate"]["k"], e.k) << text;
}
void expect_hugging_face(const json& entries, const Expected& e, const std::string& text) {
  ASSERT_TRUE(entries.is_array() && entries.size() == 2) << entries.dump();
  // Every label, by descending score.
  EXPECT_EQ(entries[0]["label"], e.label == 0 ? "neg" : "pos") << text;
  for (const auto& entry : entries) {
    const std::size_t c = entry["label"] == "neg" ? 0 : 1;
    EXPECT_EQ(entry["score"].get<double>(), e.scores[c]) << text;
  }
}
void expect_open_inference(const json& j, const std::vector<Expected>& e,
                           const std::string& model_name) {
  EXPECT_EQ(j["model_name"], model_name);
  EXPECT_EQ(j["id"], "req-7");
  const auto& out = j["outputs"];
  ASSERT_EQ(out.size(), 4u) << j.dump();
  EXPECT_EQ(out[0]["name"], "scores");
  EXPECT_EQ(out[0]["datatype"], "FP64");
  EXPECT_EQ(out[0]["shape"], json({e.size(), 2}));
  std::vector<double> scores;
  std::vector<std::string> labels;
  std::vector<std::size_t> ks;
  for (const auto& x : e) {
    scores.insert(scores.end(), x.scores.begin(), x.scores.end());
    labels.push_back(x.label == 0 ? "neg" : "pos");
    ks.push_back(x.k);
  }
  EXPECT_EQ(out[0]["data"].get<std::vector<double>>(), scores);
  EXPECT_EQ(out[1]["name"], "label");
  EXPECT_EQ(out[1]["data"].get<std::vector<std::string>>(), labels);
  EXPECT_EQ(out[2]["name"], "certificate_k");
  EXPECT_EQ(out[2]["data"].get<std::vector<std::size_t>>(), ks);
  EXPECT_EQ(out[3]["name"], "upstream_scores");
}

const std::vector<std::string> kTexts = {
    "the actor was wonderful",
    "The waiter and the actor were great, said the director.",
    "a dull film",
};

// A hostile KServe v2 body on the defaults: `data` nesting 32,600 arrays (65 KB, under the body
// limit) is refused with 400 before it is parsed, and the proxy keeps serving. Its stop summary
// counts the answered requests of every protocol (/predict, / and …/infer).
TEST(FairServeProtocols, DeeplyNestedBodiesAreRefusedAndEveryProtocolIsCounted) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  ServeProcess serve(words("fair serve --upstream lr:" + lr + " --epsilon 1 --listen 127.0.0.1:0"),
                     dir.file("serve.err"));
  auto c = client(serve.port());
  const std::string deep = std::string(32600, '[') + "\"x\"" + std::string(32600, ']');
  const std::string body = R"({"inputs": [{"name": "text", "shape": [1], "datatype": "BYTES", )"
                           R"("data": )" +
                           deep + "}]}";
  ASSERT_LT(body.size(), 65536u);
  const auto res = c.Post("/v2/models/model/infer", body, "application/json");
  ASSERT_TRUE(res) << "the proxy closed the connection (crashed?)";
  EXPECT_EQ(res->status, 400);
  EXPECT_THAT(res->body, HasSubstr("deeper than 64 levels"));
  post(c, "/predict", {{"text", "the actor was wonderful"}}, 200);
  post(c, "/", {{"inputs", "the actor was wonderful"}}, 200);
  post(c, "/v2/models/model/infer", v2_body({"the actor was wonderful"}), 200);
  const auto health = c.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
  EXPECT_THAT(serve.stderr_text(), HasSubstr("3 prediction requests answered"));
}

// --label-map renames an http: upstream's labels for assay; the proxy's clients keep reading
// the names the upstream itself answers with (here the Hugging Face form's "neg" and "pos").
TEST(FairServeProtocols, LabelMapKeepsTheUpstreamsNamesForClients) {
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  TempDir dir;
  const auto tsv = testing::write_biased_train_tsv(dir);
  assay::testing::ServerProcess upstream({"/usr/bin/python3",
                                          kExamples + "/sklearn_model_server.py", "--train", tsv,
                                          "--protocol", "hf"});
  ServeProcess serve(
      words("fair serve --upstream http://127.0.0.1:" + std::to_string(upstream.port()) +
            "/ --body-template {\"inputs\":{texts}} --label-map "
            "neg=negative,pos=positive --epsilon 1 --listen 127.0.0.1:0 --quiet"),
      dir.file("serve.err"));
  auto c = client(serve.port());
  const auto j = post(c, "/predict", {{"text", "the actor was wonderful"}}, 200);
  EXPECT_EQ(j["labels"], json::array({"neg", "pos"})) << j.dump();
  EXPECT_TRUE(j["label"] == "neg" || j["label"] == "pos") << j.dump();
  const auto health = c.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(json::parse(health->body)["labels"], json::array({"neg", "pos"}));
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
}

TEST(FairServeProtocols, EveryRequestFormAnswersTheLayerComputedHere) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  ServeProcess serve(words("fair serve --upstream lr:" + lr +
                           " --epsilon 1 --max-k 4 --max-batch 3 --listen 127.0.0.1:0 --quiet"),
                     dir.file("serve.err"));
  auto model = models::LrModel::load(lr);
  std::vector<Expected> e;
  for (const auto& t : kTexts) e.push_back(expected_answer(*model, t, 1, 4));
  ASSERT_GT(e[1].k, 0u);
  auto c = client(serve.port());

  // A batch, at /predict and at /.
  for (const char* path : {"/predict", "/"}) {
    const auto batch = post(c, path, {{"texts", kTexts}}, 200);
    ASSERT_TRUE(batch.is_array() && batch.size() == kTexts.size()) << batch.dump();
    for (std::size_t i = 0; i < kTexts.size(); ++i) expect_plain(batch[i], e[i], kTexts[i]);
  }
  // Hugging Face: one text, then a list; the certificate in the headers.
  httplib::Headers headers;
  const auto one = post(c, "/", {{"inputs", kTexts[1]}}, 200, &headers);
  ASSERT_TRUE(one.is_array() && one.size() == 1) << one.dump();
  expect_hugging_face(one[0], e[1], kTexts[1]);
  EXPECT_EQ(headers.find("X-Assay-K")->second, std::to_string(e[1].k));
  EXPECT_EQ(headers.find("X-Assay-Epsilon")->second, "1.0");
  const auto list = post(c, "/predict", {{"inputs", kTexts}, {"parameters", {{"top_k", nullptr}}}},
                         200, &headers);
  ASSERT_TRUE(list.is_array() && list.size() == kTexts.size()) << list.dump();
  for (std::size_t i = 0; i < kTexts.size(); ++i) expect_hugging_face(list[i], e[i], kTexts[i]);
  EXPECT_EQ(headers.find("X-Assay-K")->second,
            std::to_string(e[0].k) + "," + std::to_string(e[1].k) + "," + std::to_string(e[2].k));
  // Open Inference Protocol: shape [n] and [n, 1].
  expect_open_inference(post(c, "/v2/models/model/infer", v2_body(kTexts), 200), e, "model");
  auto column = v2_body({kTexts[1]});
  column["inputs"][0]["shape"] = {1, 1};
  column["inputs"][0]["data"] = {{kTexts[1]}};
  expect_open_inference(post(c, "/v2/models/model/versions/1/infer", column, 200), {e[1]}, "model");

  // Refused, and the proxy keeps serving.
  struct Bad {
    std::string path;
    json body;
    int status;
    std::string message;
  };
  auto wrong_type = v2_body({"a"});
  wrong_type["inputs"][0]["datatype"] = "FP32";
  auto wrong_shape = v2_body({"a", "b"});
  wrong_shape["inputs"][0]["shape"] = {3};
  const std::vector<Bad> bad = {
      {"/predict",
       {{"texts", {"a", "b", "c", "d"}}},
       400,
       "at most 3 per request (the server's batch limit)"},
      {"/predict", {{"texts", json::array()}}, 400, "an empty batch"},
      {"/", {{"inputs", 3}}, 400, "expected a JSON object"},
      {"/predict", {{"texts", {"a", 1}}}, 400, "expected strings"},
      {"/v2/models/model/infer", wrong_type, 400, "expected datatype BYTES"},
      {"/v2/models/model/infer", wrong_shape, 400, "does not fit its 2 strings"},
      {"/v2/models/model/infer", {{"inputs", json::array()}}, 400, "expected one input tensor"},
      {"/v2/models/other/infer", v2_body({"a"}), 404, "this proxy serves 'model'"},
  };
  for (const auto& b : bad) {
    const auto res = c.Post(b.path, b.body.dump(), "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, b.status) << b.body.dump();
    EXPECT_THAT(res->body, HasSubstr(b.message)) << b.body.dump();
    expect_plain(post(c, "/predict", {{"text", kTexts[1]}}, 200), e[1], kTexts[1]);
  }
  // Health and metadata.
  const auto ready = c.Get("/v2/health/ready");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);
  EXPECT_EQ(json::parse(ready->body)["ready"], true);
  const auto live = c.Get("/v2/health/live");
  ASSERT_TRUE(live);
  EXPECT_EQ(live->status, 200);
  const auto meta = c.Get("/v2/models/model");
  ASSERT_TRUE(meta);
  ASSERT_EQ(meta->status, 200);
  const auto m = json::parse(meta->body);
  EXPECT_EQ(m["name"], "model");
  EXPECT_EQ(m["inputs"][0]["datatype"], "BYTES");
  EXPECT_EQ(m["parameters"]["labels"], json({"neg", "pos"}));
  const auto model_ready = c.Get("/v2/models/model/ready");
  ASSERT_TRUE(model_ready);
  EXPECT_EQ(model_ready->status, 200);
  const auto other = c.Get("/v2/models/other");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // answers are counted once sent
  const auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(
      metrics->body,
      HasSubstr("assay_serve_requests_total{path=\"/v2/models/NAME/infer\",status=\"200\"} 2\n"));
  EXPECT_THAT(
      metrics->body,
      HasSubstr("assay_serve_requests_total{path=\"/v2/models/NAME/infer\",status=\"404\"} 1\n"));
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
}

// The worked example of docs/fairness.md ("In front of a model server"): the scikit-learn model
// served as KServe, a Hugging Face endpoint and TorchServe serve it.
struct Upstream {
  std::string protocol;
  std::string upstream_path;  // after http://127.0.0.1:PORT
  std::string proxy_options;  // besides --upstream
  std::string client_path;    // where the client posts
  bool batched;               // one upstream request per proxy request
};

// Names the parameter in test listings (not its bytes).
void PrintTo(const Upstream& u, std::ostream* os) {
  *os << u.protocol;
}

class FairServeInFrontOf : public ::testing::TestWithParam<Upstream> {};

TEST_P(FairServeInFrontOf, AnswersTheLayerOverTheUpstreamAndForwardsRequestFields) {
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  const Upstream& u = GetParam();
  TempDir dir;
  const auto tsv = testing::write_biased_train_tsv(dir);
  assay::testing::ServerProcess upstream(
      {"/usr/bin/python3", kExamples + "/sklearn_model_server.py", "--train", tsv, "--protocol",
       u.protocol, "--name", "sentiment", "--record", dir.file("requests.jsonl")});
  const std::string url = "http://127.0.0.1:" + std::to_string(upstream.port()) + u.upstream_path;
  ServeProcess serve(words("fair serve --upstream " + url + " " + u.proxy_options +
                           " --epsilon 1 --max-k 4 --listen 127.0.0.1:0"),
                     dir.file("serve.err"));
  // The expected answers: the same upstream asked directly by the http: adapter.
  models::ModelOptions mo;
  mo.labels = {"neg", "pos"};
  if (u.protocol == "hf") mo.http.body_template = R"({"inputs": {texts}})";
  models::HttpModel direct(url, mo);
  std::vector<Expected> e;
  for (const auto& t : kTexts) e.push_back(expected_answer(direct, t, 1, 4));
  ASSERT_GT(e[1].k, 0u);
  const auto before = [&] {
    std::ifstream in(dir.file("requests.jsonl"));
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  };
  const std::size_t n_before = before();
  auto c = client(serve.port());
  if (u.client_path.rfind("/v2/", 0) == 0) {
    auto body = v2_body(kTexts);
    body["parameters"] = {{"request_tag", "forwarded"}};
    expect_open_inference(post(c, u.client_path, body, 200), e, "sentiment");
  } else if (u.client_path == "/") {
    const auto list =
        post(c, "/", {{"inputs", kTexts}, {"parameters", {{"request_tag", "forwarded"}}}}, 200);
    ASSERT_EQ(list.size(), kTexts.size()) << list.dump();
    for (std::size_t i = 0; i < kTexts.size(); ++i) expect_hugging_face(list[i], e[i], kTexts[i]);
  } else {
    const auto batch = post(c, "/predict", {{"texts", kTexts}, {"request_tag", "forwarded"}}, 200);
    ASSERT_EQ(batch.size(), kTexts.size()) << batch.dump();
    for (std::size_t i = 0; i < kTexts.size(); ++i) expect_plain(batch[i], e[i], kTexts[i]);
  }
  // What reached the upstream for that one request.
  std::ifstream in(dir.file("requests.jsonl"));
  std::vector<json> asked;
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);)
    if (line_no++ >= n_before) asked.push_back(json::parse(line));
  EXPECT_EQ(asked.size(), u.batched ? 1u : distinct_texts_asked(kTexts, 4));
  for (const auto& body : asked) {
    const json tag =
        body.contains("parameters") ? body["parameters"]["request_tag"] : body["request_tag"];
    EXPECT_EQ(tag, "forwarded") << body.dump();
  }
  EXPECT_THAT(serve.stderr_text(),
              HasSubstr(u.batched ? "asked one request per proxy request"
                                  : "asked one text per request, in parallel"));
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
}

INSTANTIATE_TEST_SUITE_P(
    Servers, FairServeInFrontOf,
    ::testing::Values(
        Upstream{"kserve", "/v2/models/sentiment/infer", "--labels neg,pos",
                 "/v2/models/sentiment/infer", true},
        Upstream{"hf", "/", "--labels neg,pos --body-template {\"inputs\":{texts}}", "/", true},
        Upstream{"torchserve", "/predictions/sentiment", "--labels neg,pos", "/predict", false}),
    [](const auto& param_info) { return param_info.param.protocol; });

}  // namespace
}  // namespace assay::fairness
