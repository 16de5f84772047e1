// NeutralService in-process on loopback, in front of the built-in LR (trained here), asked
// over real HTTP connections: its answers equal the neutral layer computed directly, bad
// requests get 400/404/413 and the service keeps answering, /metrics counts them.
#include "fairness/neutral_service.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "core/error.h"
#include "fairness/neutral_layer.h"
#include "fairness_test_support.h"
#include "models/answer_cache.h"
#include "models/cached_model.h"
#include "models/lr_model.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using ::testing::HasSubstr;

// The biased LR of the command tests ("actress" and "female" only in negative texts).
std::string save_biased_lr(const assay::testing::TempDir& dir) {
  std::vector<std::string> texts, labels;
  for (int i = 0; i < 6; ++i) {
    texts.insert(texts.end(), {"the actor was wonderful", "a great actor and a great film",
                               "the actress was awful", "a female lead and a dull film"});
    labels.insert(labels.end(), {"pos", "pos", "neg", "neg"});
  }
  const std::string path = dir.file("m.lr");
  models::LrModel::train(texts, labels)->save(path);
  return path;
}

class ServiceOnLoopback {
 public:
  ServiceOnLoopback(const Perturbator& p, const std::string& lr, NeutralServiceOptions o)
      : service_(
            p, [lr] { return models::LrModel::load(lr); }, o) {
    port_ = service_.bind("127.0.0.1", 0);
    thread_ = std::thread([this] { service_.serve(); });
  }
  ~ServiceOnLoopback() {
    service_.stop();
    thread_.join();
  }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(30, 0);
    c.set_tcp_nodelay(true);
    return c;
  }
  NeutralService& service() { return service_; }

 private:
  NeutralService service_;
  int port_ = 0;
  std::thread thread_;
};

nlohmann::json ask(httplib::Client& c, const std::string& text, int* status = nullptr) {
  const auto res = c.Post("/predict", nlohmann::json{{"text", text}}.dump(), "application/json");
  EXPECT_TRUE(res) << "no answer for '" << text << "'";
  if (!res) return {};
  if (status) *status = res->status;
  return nlohmann::json::parse(res->body);
}

TEST(NeutralService, AnswersEqualTheNeutralLayerComputedDirectly) {
  assay::testing::TempDir dir;
  const std::string lr = save_biased_lr(dir);
  Perturbator perturbator(testing::default_resources(), gender_attribute());
  NeutralServiceOptions o;
  o.epsilon = 0.5;
  o.max_k = 2;
  ServiceOnLoopback s(perturbator, lr, o);
  auto c = s.client();
  auto model = models::LrModel::load(lr);
  const std::vector<std::string> texts = {"the actor was wonderful",
                                          "The waiter and the actor were great.",
                                          "the film was wonderful", ""};
  std::size_t n_smoothed = 0;
  for (const auto& text : texts) {
    int status = 0;
    const auto j = ask(c, text, &status);
    ASSERT_EQ(status, 200) << j.dump();
    // Directly: the representative, its first max_k perturbations, the model, class_smooth.
    auto direct = models::LrModel::load(lr);
    const auto expected = testing::expected_neutral(perturbator, *direct, text, 0.5, 2);
    EXPECT_EQ(j["scores"].get<std::vector<double>>(), expected.scores) << text;
    EXPECT_EQ(j["label"], model->labels()[expected.label]) << text;
    EXPECT_EQ(j["labels"], nlohmann::json(model->labels()));
    EXPECT_EQ(j["certificate"]["epsilon"], 0.5);
    EXPECT_EQ(j["certificate"]["k"], expected.k) << text;
    EXPECT_EQ(j["upstream_scores"].get<std::vector<double>>(), model->predict({text})[0]);
    n_smoothed += expected.k > 0;
  }
  EXPECT_EQ(n_smoothed, 2u);  // the two texts with person nouns: classes of k = 2
  // Counted once the answer is written (the client may read it first).
  const auto& m = s.service().metrics();
  for (int i = 0; i < 100 && m.requests("/predict", 200) < texts.size(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(m.requests("/predict", 200), texts.size());
}

// The certificate where a client sees it: a text and every perturbation the perturbator makes
// of it (any of them, not only the first max_k) are answered within e^ε of each other, class by
// class, however many people, names and pronouns they hold — for gender and a file attribute.
TEST(NeutralService, EveryPerturbationIsAnsweredWithinTheCertificate) {
  assay::testing::TempDir dir;
  const std::string lr = save_biased_lr(dir);
  for (const std::string attribute : {"gender", "religion"}) {
    Perturbator perturbator(testing::default_resources(),
                            load_attribute(attribute, testing::kAttributes));
    for (double epsilon : {0.1, 1.0, 5.0}) {
      NeutralServiceOptions o;
      o.epsilon = epsilon;
      o.max_k = 2;
      ServiceOnLoopback s(perturbator, lr, o);
      auto c = s.client();
      std::size_t pairs = 0;
      for (const std::string text :
           {"the actor was wonderful", "The waiter told his wife that the actress was great.",
            "John thanked the nurse and she smiled.", "An old priest and a young monk argued.",
            "the christian teacher was awful", "Muslims and Christians loved the film."}) {
        const auto x = ask(c, text);
        const auto f0 = x["scores"].get<std::vector<double>>();
        for (const auto& p : perturbator.perturb(text).perturbations) {
          EXPECT_EQ(perturbator.neutral_form(p.text), perturbator.neutral_form(text))
              << attribute << ": " << text << " -> " << p.text;
          const auto f1 = ask(c, p.text)["scores"].get<std::vector<double>>();
          EXPECT_LE(realised_epsilon({f0, f1}), epsilon + 1e-12)
              << attribute << " " << epsilon << ": " << text << " -> " << p.text;
          ++pairs;
        }
      }
      EXPECT_GE(pairs, 6u) << attribute;
    }
  }
}

TEST(NeutralService, BadRequestsAreRefusedAndTheServiceKeepsServing) {
  assay::testing::TempDir dir;
  const std::string lr = save_biased_lr(dir);
  Perturbator perturbator(testing::default_resources(), gender_attribute());
  NeutralServiceOptions o;
  o.max_body_bytes = 1000;
  ServiceOnLoopback s(perturbator, lr, o);
  auto c = s.client();
  int status = 0;
  const auto good = ask(c, "the actor was wonderful", &status);
  ASSERT_EQ(status, 200);
  auto expect_good_answer = [&] {
    int st = 0;
    EXPECT_EQ(ask(c, "the actor was wonderful", &st), good);
    EXPECT_EQ(st, 200);
  };
  struct Bad {
    std::string body;
    int status;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {"{\"text\": ", 400, "not JSON"},
      {"[1, 2]", 400, "expected a JSON object"},
      {"{\"txt\": \"x\"}", 400, "expected a JSON object"},
      {"{\"text\": 3}", 400, "expected a JSON object"},
      {"{\"text\": \"caf\xc3\"}", 400, "not JSON"},  // nlohmann rejects invalid UTF-8
      {"{\"text\": \"" + std::string(2000, 'a') + "\"}", 413,
       "larger than the limit of 1000 bytes"},
      // Nesting past 64 levels is refused before it is parsed (its copies would recurse).
      {"{\"text\": " + std::string(64, '[') + "\"x\"" + std::string(64, ']') + "}", 400,
       "nests arrays or objects deeper than 64 levels"},
      {"{\"inputs\": " + std::string(300, '[') + std::string(300, ']') + "}", 400,
       "deeper than 64 levels"},
  };
  for (const auto& b : bad) {
    const auto res = c.Post("/predict", b.body, "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, b.status) << b.body.substr(0, 40);
    EXPECT_THAT(res->body, HasSubstr(b.message)) << b.body.substr(0, 40);
    expect_good_answer();
  }
  const auto missing = c.Get("/nothing");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  const auto health = c.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  const auto h = nlohmann::json::parse(health->body);
  EXPECT_EQ(h["status"], "ok");
  EXPECT_THAT(h["upstream"].get<std::string>(), HasSubstr("lr:sha256:"));

  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the last answers are counted
  const auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  const std::string& t = metrics->body;
  EXPECT_THAT(t, HasSubstr("assay_serve_requests_total{path=\"/predict\",status=\"200\"} 9\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_requests_total{path=\"/predict\",status=\"400\"} 7\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_requests_total{path=\"/predict\",status=\"413\"} 1\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_requests_total{path=\"other\",status=\"404\"} 1\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_requests_total{path=\"/health\",status=\"200\"} 1\n"));
  // The handler's answers (not the 413, which the server gives before the handler runs).
  EXPECT_THAT(t, HasSubstr("assay_serve_predict_seconds_count 16\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_predict_seconds_bucket{le=\"+Inf\"} 16\n"));
  EXPECT_THAT(t, HasSubstr("# TYPE assay_serve_predict_seconds histogram\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_upstream_errors_total 0\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_in_flight 0\n"));
}

// Behind the answer cache (shared by the upstream models of the service), a repeated text is
// answered from the cache: hits counted, the same answer.
TEST(NeutralService, CountsAnswerCacheHits) {
  assay::testing::TempDir dir;
  const std::string lr = save_biased_lr(dir);
  Perturbator perturbator(testing::default_resources(), gender_attribute());
  auto cache = std::make_shared<models::AnswerCache>(dir.file("cache.sqlite"));
  NeutralService service(perturbator,
                         [lr, cache]() -> std::unique_ptr<models::Model> {
                           return std::make_unique<models::CachedModel>(models::LrModel::load(lr),
                                                                        cache);
                         },
                         {});
  const int port = service.bind("127.0.0.1", 0);
  std::thread server([&] { service.serve(); });
  httplib::Client c("127.0.0.1", port);
  c.set_tcp_nodelay(true);
  int status = 0;
  const auto first = ask(c, "the actor was wonderful", &status);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(service.metrics().cache_hits(), 0u);
  const auto again = ask(c, "the actor was wonderful", &status);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(again, first);
  // The text, its class's representative ("the person was wonderful") and its k perturbations.
  const std::uint64_t k = first["certificate"]["k"];
  EXPECT_GT(k, 0u);
  EXPECT_EQ(service.metrics().cache_hits(), k + 2);
  const auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(metrics->body,
              HasSubstr("assay_serve_cache_hits_total " + std::to_string(k + 2) + "\n"));
  EXPECT_THAT(metrics->body,
              HasSubstr("assay_serve_upstream_texts_total " + std::to_string(2 * (k + 2)) + "\n"));
  service.stop();
  server.join();
}

TEST(NeutralService, RejectsBadOptions) {
  Perturbator perturbator(testing::default_resources(), gender_attribute());
  auto factory = []() -> std::unique_ptr<models::Model> { return nullptr; };
  NeutralServiceOptions o;
  o.epsilon = -1;
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  o = {};
  o.max_concurrent = 0;
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  o = {};
  o.deadline_seconds = 0;
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  o = {};
  o.max_batch = 0;
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  o = {};
  o.model_name = "a/b";
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  // The connection guard's ranges.
  o = {};
  o.max_connections = 0;
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  o = {};
  o.read_timeout = std::chrono::milliseconds(1);
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  o = {};
  o.idle_timeout = std::chrono::milliseconds(600'001);
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
  o = {};
  o.backlog = 65536;
  EXPECT_THROW((NeutralService{perturbator, factory, o}), core::UsageError);
}

TEST(ServiceMetrics, HistogramIsCumulativeAndPathsAreBounded) {
  ServiceMetrics m;
  m.observe_predict_seconds(0.0004);
  m.observe_predict_seconds(0.003);
  m.observe_predict_seconds(100);
  m.count_request("/predict", 200);
  m.count_request("/a/b/c", 404);
  m.count_request("/x", 404);
  const std::string t = m.render();
  EXPECT_THAT(t, HasSubstr("assay_serve_predict_seconds_bucket{le=\"0.0005\"} 1\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_predict_seconds_bucket{le=\"0.005\"} 2\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_predict_seconds_bucket{le=\"10\"} 2\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_predict_seconds_bucket{le=\"+Inf\"} 3\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_predict_seconds_count 3\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_requests_total{path=\"other\",status=\"404\"} 2\n"));
  EXPECT_EQ(m.requests("/predict", 200), 1u);
  EXPECT_THAT(t, ::testing::Not(HasSubstr("assay_serve_open_connections")));
}

TEST(ServiceMetrics, ConnectionCountsFromTheirSource) {
  ServiceMetrics m;
  ConnectionCounts c;
  c.open = 3;
  c.accepted = 10;
  c.refused = 4;
  c.too_large = 2;
  c.headers_too_large = 1;
  c.idle_timeouts = 5;
  c.read_timeouts = 6;
  c.write_timeouts = 7;
  m.set_connection_source([&c] { return c; });
  const std::string t = m.render();
  EXPECT_THAT(t, HasSubstr("# TYPE assay_serve_open_connections gauge\n"
                           "assay_serve_open_connections 3\n"));
  EXPECT_THAT(t, HasSubstr("\nassay_serve_connections_total 10\n"));
  EXPECT_THAT(t, HasSubstr("\nassay_serve_connections_refused_total 4\n"));
  EXPECT_THAT(t, HasSubstr("\nassay_serve_bodies_too_large_total 2\n"));
  EXPECT_THAT(t, HasSubstr("\nassay_serve_headers_too_large_total 1\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_connection_timeouts_total{phase=\"idle\"} 5\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_connection_timeouts_total{phase=\"read\"} 6\n"));
  EXPECT_THAT(t, HasSubstr("assay_serve_connection_timeouts_total{phase=\"write\"} 7\n"));
  c.open = 0;  // read at every render
  EXPECT_THAT(m.render(), HasSubstr("assay_serve_open_connections 0\n"));
}

}  // namespace
}  // namespace assay::fairness
