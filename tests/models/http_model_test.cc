// The http: adapter against real local servers (Python's http.server): a scikit-learn pipeline,
// a hosted-classifier answer shape, and servers that throttle, fail, stall or cut answers short.
#include "models/http_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "adapter_test_support.h"
#include "models/model_error.h"
#include "rt_polarity.h"
#include "server_process.h"
#include "support/temp_dir.h"

namespace {

using assay::models::HttpModel;
using assay::models::ModelError;
using assay::models::ModelOptions;
using assay::models::numbered;
using assay::models::predict_error;
using assay::testing::ServerProcess;
using assay::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kData = std::string(ASSAY_TEST_DATA_DIR) + "/models";

ServerProcess fault_server(const std::string& mode, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{"/usr/bin/python3", kData + "/http_fault_server.py", mode};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return ServerProcess(argv);
}

ModelOptions options(double timeout = 10) {
  ModelOptions o;
  o.labels = {"neg", "pos"};
  o.timeout_seconds = timeout;
  o.http.scores_pointer = "/scores";
  o.http.backoff_seconds = 0.05;
  return o;
}

TEST(HttpModel, ScikitLearnPipelineOverHttpOneAndBatchedRequests) {
  if (!assay::testing::rt_polarity_available()) GTEST_SKIP() << "rt-polarity data absent";
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  }
  const auto rt = assay::testing::load_rt_polarity();
  TempDir dir;
  {
    std::ofstream tsv(dir.file("train.tsv"), std::ios::binary);
    tsv << "label\ttext\n";
    for (std::size_t i : rt.train) tsv << rt.labels[i] << '\t' << rt.texts[i] << '\n';
  }
  ServerProcess server({"/usr/bin/python3", kData + "/sklearn_server.py", "--train",
                        dir.file("train.tsv"), "--http", "0", "--record",
                        dir.file("answers.jsonl")});
  std::vector<std::string> texts;
  const auto first = rt.golden["first_test_documents"].get<std::vector<std::size_t>>();
  for (std::size_t i : first) texts.push_back(rt.texts[i]);
  auto o = options();
  o.http.concurrency = 8;
  HttpModel one(server.url(), o);
  o.http.body_template = R"({"texts": {texts}})";
  HttpModel batched(server.url(), o);
  EXPECT_NE(one.identity(), batched.identity());
  const auto a = one.predict(texts);
  const auto b = batched.predict(texts);
  ASSERT_EQ(a.size(), texts.size());
  const auto recorded = assay::testing::recorded_scores(dir.file("answers.jsonl"));
  const double tolerance = assay::testing::golden_tolerance(rt, "first_test_proba");
  for (std::size_t k = 0; k < texts.size(); ++k) {
    EXPECT_EQ(a[k], recorded.at(texts[k]));  // bit for bit what the server computed
    EXPECT_NEAR(a[k][1], rt.golden["first_test_proba"][k][1].get<double>(), tolerance);
    EXPECT_EQ(a[k], b[k]);
  }
}

TEST(HttpModel, HostedClassifierAnswersWithALabelMap) {
  auto server = fault_server("hosted");
  auto o = options();
  o.labels.clear();
  o.http.scores_pointer = "/0";
  o.http.label_map = "NEGATIVE=neg,POSITIVE=pos";
  HttpModel model(server.url(), o);
  EXPECT_THAT(model.labels(), ::testing::ElementsAre("neg", "pos"));
  EXPECT_EQ(model.predict({"a"})[0], (std::vector<double>{0.25, 0.75}));
  o.http.label_map = "NEGATIVE=neg,NEUTRAL=mid";
  HttpModel wrong(server.url(), o);
  EXPECT_THAT(predict_error(wrong, {"a"}).what(), HasSubstr("label 'POSITIVE' is not in"));
}

TEST(HttpModel, TooManyRequestsThenSuccessHonoursRetryAfter) {
  auto server = fault_server("429-once");
  auto o = options();
  o.http.concurrency = 1;
  HttpModel model(server.url(), o);
  const auto start = std::chrono::steady_clock::now();
  const auto scores = model.predict(numbered(3));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(scores[0], (std::vector<double>{0.25, 0.75}));
  EXPECT_EQ(model.n_retries(), 1u);
  EXPECT_GE(seconds, 0.95);  // Retry-After: 1, not the 0.05 s back-off
}

// A server asking for a 28-hour pause is obeyed for --timeout seconds at most.
TEST(HttpModel, RetryAfterIsCappedByTheTimeout) {
  auto server = fault_server("429-long");
  auto o = options(1);
  o.http.concurrency = 1;
  HttpModel model(server.url(), o);
  const auto start = std::chrono::steady_clock::now();
  const auto scores = model.predict(numbered(2));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(scores[1], (std::vector<double>{0.25, 0.75}));
  EXPECT_EQ(model.n_retries(), 1u);
  EXPECT_GE(seconds, 0.95);  // the pause was taken, for --timeout
  EXPECT_LT(seconds, 10.0);
}

// 64 MiB answers, chunked or announced by Content-Length, are refused once the limit has
// arrived; this process never holds them (an unbounded read reports "not JSON" after taking
// all 64 MiB).
TEST(HttpModel, AnswerOverTheLimitIsRefusedWhileItIsRead) {
  for (const std::string mode : {"huge-chunked", "huge-length"}) {
    SCOPED_TRACE(mode);
    auto server = fault_server(mode);
    auto o = options();
    o.http.concurrency = 1;
    o.http.max_answer_bytes = 1 << 20;
    HttpModel model(server.url(), o);
    rusage before{};
    ::getrusage(RUSAGE_SELF, &before);
    const auto e = predict_error(model, numbered(1));
    rusage after{};
    ::getrusage(RUSAGE_SELF, &after);
    EXPECT_THAT(e.what(), HasSubstr("http: " + server.url() +
                                    ": an answer longer than the limit of 1048576 bytes"));
    EXPECT_EQ(*e.batch_index(), 0u);
    EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 32 * 1024);  // KiB
  }
  ModelOptions defaults;
  EXPECT_EQ(defaults.http.max_answer_bytes, std::size_t{16} << 20);
}

TEST(HttpModel, ServerErrorForeverFailsAfterTheRetries) {
  auto server = fault_server("500");
  auto o = options();
  o.http.max_retries = 2;
  o.http.concurrency = 1;
  HttpModel model(server.url(), o);
  const auto e = predict_error(model, numbered(2));
  EXPECT_THAT(e.what(), HasSubstr("http: " + server.url() + ": HTTP status 500 after 2 retries"));
  EXPECT_EQ(*e.batch_index(), 0u);
  EXPECT_EQ(model.n_retries(), 2u);
}

TEST(HttpModel, SlowServerTimesOut) {
  auto server = fault_server("slow");
  auto o = options(0.5);
  o.http.max_retries = 1;
  HttpModel model(server.url(), o);
  const auto e = predict_error(model, {"a"});
  EXPECT_THAT(e.what(), HasSubstr("no complete answer"));
  EXPECT_THAT(e.what(), HasSubstr("after 1 retry"));
}

// cancel() from another thread ends a request waiting on a slow server at once (the request
// is given a minute); the model answers later calls.
TEST(HttpModel, CancelFromAnotherThreadEndsTheRequest) {
  auto server = fault_server("slow");
  auto o = options(60);
  HttpModel model(server.url(), o);
  const auto start = std::chrono::steady_clock::now();
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    model.cancel();
  });
  const auto e = predict_error(model, {"a"});
  canceller.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_THAT(e.what(), HasSubstr("cancelled"));
  EXPECT_LT(seconds, 2.5);  // the server answers after 3 s
  EXPECT_EQ(model.predict({"b"}).size(), 1u);
}

TEST(HttpModel, TruncatedBodyIsAnError) {
  auto server = fault_server("truncated");
  auto o = options(2);
  o.http.max_retries = 1;
  HttpModel model(server.url(), o);
  const auto e = predict_error(model, {"a", "b"});
  EXPECT_THAT(e.what(), HasSubstr("no complete answer"));
}

TEST(HttpModel, HeadersComeFromTheEnvironmentAndStayOutOfIdentityAndErrors) {
  auto server = fault_server("auth");
  ::setenv("ASSAY_TEST_API_KEY", "s3cret", 1);
  auto o = options();
  o.http.headers = {"Authorization: Bearer ${ASSAY_TEST_API_KEY}"};
  HttpModel model(server.url(), o);
  EXPECT_EQ(model.predict({"a"})[0], (std::vector<double>{0.25, 0.75}));
  EXPECT_THAT(model.identity(), Not(HasSubstr("s3cret")));
  EXPECT_THAT(model.identity(), Not(HasSubstr("Authorization")));
  ::setenv("ASSAY_TEST_API_KEY", "wrong", 1);
  HttpModel refused(server.url(), o);
  const auto e = predict_error(refused, {"a"});
  EXPECT_THAT(e.what(), HasSubstr("HTTP status 401 (expected 2xx)"));
  EXPECT_THAT(e.what(), Not(HasSubstr("wrong")));
  EXPECT_EQ(refused.identity(), model.identity());  // same model, whatever the key
  ::unsetenv("ASSAY_TEST_API_KEY");
  try {
    HttpModel missing(server.url(), o);
    FAIL();
  } catch (const assay::core::UsageError& error) {
    EXPECT_THAT(error.what(), HasSubstr("${ASSAY_TEST_API_KEY}, which is not set"));
  }
}

TEST(HttpModel, HttpsVerifiesTheCertificate) {
  TempDir dir;
  const std::string cert = dir.file("cert.pem"), key = dir.file("key.pem");
  const std::string make_cert =
      "openssl req -x509 -newkey rsa:2048 -nodes -keyout " + key + " -out " + cert +
      " -days 1 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1"
      " >/dev/null 2>&1";
  ASSERT_EQ(std::system(make_cert.c_str()), 0);
  auto server = fault_server("ok", {"--cert", cert, "--key", key});
  auto o = options();
  HttpModel untrusted(server.url("localhost", "https"), o);
  EXPECT_THAT(predict_error(untrusted, {"a"}).what(), HasSubstr("did not verify"));
  o.http.ca_file = cert;
  HttpModel trusted(server.url("localhost", "https"), o);
  EXPECT_EQ(trusted.predict({"a", "b"})[1], (std::vector<double>{0.25, 0.75}));
}

// The scikit-learn model of examples/serving served as KServe and as TorchServe serve it: the
// v2 URL sends one BYTES tensor per batch and reads the [n, labels] output tensor; TorchServe's
// {label: score} objects are read by name; both give the same scores. Request fields are added
// to every body until they are cleared.
TEST(HttpModel, OpenInferenceTensorsTorchServeObjectsAndRequestFields) {
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  }
  TempDir dir;
  const auto tsv = dir.write("train.tsv",
                             "text\tlabel\nthe film was great\tpos\na great cast\tpos\n"
                             "the film was dull\tneg\na dull plot\tneg\n");
  const std::string server =
      std::string(ASSAY_TEST_DATA_DIR) + "/../../examples/serving/sklearn_model_server.py";
  auto start = [&](const std::string& protocol) {
    return std::make_unique<ServerProcess>(
        std::vector<std::string>{"/usr/bin/python3", server, "--train", tsv, "--protocol", protocol,
                                 "--name", "m", "--record", dir.file(protocol + ".jsonl")});
  };
  auto kserve = start("kserve");
  auto torchserve = start("torchserve");
  ModelOptions o;
  o.labels = {"neg", "pos"};
  HttpModel v2("http://127.0.0.1:" + std::to_string(kserve->port()) + "/v2/models/m/infer", o);
  HttpModel ts("http://127.0.0.1:" + std::to_string(torchserve->port()) + "/predictions/m", o);
  EXPECT_TRUE(v2.batched());
  EXPECT_FALSE(ts.batched());
  EXPECT_THAT(v2.identity(), HasSubstr("/outputs/0/data"));
  const std::vector<std::string> texts = {"a great film", "a dull film", "the plot"};
  const auto a = v2.predict(texts);
  EXPECT_EQ(a, ts.predict(texts));
  EXPECT_GT(a[0][1], a[0][0]);
  EXPECT_GT(a[1][0], a[1][1]);
  EXPECT_EQ(v2.predict({"a great film"})[0], a[0]);  // shape [1, 2]
  v2.set_request_fields({{"parameters", {{"tag", "t1"}}}, {"inputs", "never replaces"}});
  (void)v2.predict(texts);
  v2.set_request_fields(nullptr);
  (void)v2.predict(texts);
  std::vector<nlohmann::json> sent;
  {
    std::ifstream in(dir.file("kserve.jsonl"));
    for (std::string line; std::getline(in, line);) sent.push_back(nlohmann::json::parse(line));
  }
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[0]["inputs"][0]["shape"], nlohmann::json({3}));
  EXPECT_EQ(sent[0]["inputs"][0]["datatype"], "BYTES");
  EXPECT_EQ(sent[0]["inputs"][0]["data"], nlohmann::json(texts));
  EXPECT_EQ(sent[1]["inputs"][0]["shape"], nlohmann::json({1}));
  EXPECT_EQ(sent[2]["parameters"]["tag"], "t1");
  EXPECT_EQ(sent[2]["inputs"][0]["data"], nlohmann::json(texts));
  EXPECT_FALSE(sent[3].contains("parameters"));
  EXPECT_THROW(v2.set_request_fields(nlohmann::json::array()), assay::core::UsageError);
  // A template that is not an object cannot take fields.
  o.http.body_template = "{text}";
  HttpModel bare("http://127.0.0.1:" + std::to_string(torchserve->port()) + "/predictions/m", o);
  EXPECT_EQ(bare.predict({"a great film"})[0], a[0]);
  bare.set_request_fields({{"tag", 1}});
  EXPECT_THAT(predict_error(bare, {"a great film"}).what(),
              HasSubstr("request fields can only be added to a body that is a JSON object"));
}

TEST(HttpModel, BadOptionsAreUsageErrors) {
  auto o = options();
  EXPECT_THROW(HttpModel("ftp://x/y", o), assay::core::UsageError);
  o.http.body_template = "{\"q\": 1}";
  EXPECT_THROW(HttpModel("http://127.0.0.1:1/", o), assay::core::UsageError);
  o = options();
  o.labels.clear();
  EXPECT_THROW(HttpModel("http://127.0.0.1:1/", o), assay::core::UsageError);
  o = options();
  o.http.scores_pointer = "scores";
  EXPECT_THROW(HttpModel("http://127.0.0.1:1/", o), assay::core::UsageError);
}

}  // namespace
