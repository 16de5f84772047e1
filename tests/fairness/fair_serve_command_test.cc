// `assay fair serve` as a real process on loopback, in front of real upstreams: the built-in
// LR (a model file trained by `assay model train-lr`), the scikit-learn pipeline served over
// HTTP by tests/data/models/sklearn_server.py, and the slow server of the http: adapter tests.
// Answers equal the neutral layer computed here; 400/413/502/503/504 and the service keeps
// serving after each; an upstream killed and restarted; SIGTERM drains and exits 0; resident
// memory stays bounded over 10,000 requests.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "biased_lr.h"
#include "fairness/neutral_layer.h"
#include "fairness/perturbator.h"
#include "fairness_test_support.h"
#include "models/http_model.h"
#include "models/lr_model.h"
#include "models/server_process.h"
#include "serve_process.h"
#include "support/temp_dir.h"

namespace assay::fairness {
namespace {

using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;
using testing::ServeProcess;
using testing::words;

const std::string kModelsData = std::string(ASSAY_TEST_DATA_DIR) + "/models";

httplib::Client client(int port, int timeout_seconds = 30) {
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(timeout_seconds, 0);
  c.set_keep_alive(true);
  c.set_tcp_nodelay(true);  // headers and body are separate writes: no Nagle delay
  return c;
}

// GET /metrics until it holds `line` (at most about 10 s); the last exposition read.
std::string metrics_once(httplib::Client& c, const std::string& line) {
  std::string body;
  for (int i = 0; i < 500; ++i) {
    if (const auto m = c.Get("/metrics")) body = m->body;
    if (body.find(line) != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return body;
}

httplib::Result post_text(httplib::Client& c, const std::string& text) {
  return c.Post("/predict", nlohmann::json{{"text", text}}.dump(), "application/json");
}

// What the proxy must answer: the neutral layer with the default perturbator, computed in this
// process (testing::expected_neutral).
struct Expected {
  std::vector<double> scores;
  std::string label;
  std::size_t k = 0;
};
const Perturbator& default_perturbator() {
  static const Perturbator perturbator(testing::default_resources(), gender_attribute());
  return perturbator;
}
Expected expected_answer(models::Model& model, const std::string& text, double epsilon,
                         std::size_t max_k) {
  const auto e = testing::expected_neutral(default_perturbator(), model, text, epsilon, max_k);
  return {e.scores, model.labels()[e.label], e.k};
}
// The same from the neighbourhood's texts (the representative first).
Expected expected_from(models::Model& model, const std::string& text,
                       const std::vector<std::string>& neighbourhood, double epsilon) {
  const auto f = class_smooth(model.predict({text})[0],
                              class_reference(model.predict(neighbourhood)), epsilon);
  return {f.scores, model.labels()[f.label], neighbourhood.size() - 1};
}

void expect_answer(const httplib::Result& res, const Expected& e, const std::string& text) {
  ASSERT_TRUE(res) << text;
  ASSERT_EQ(res->status, 200) << text << ": " << res->body;
  const auto j = nlohmann::json::parse(res->body);
  EXPECT_EQ(j["scores"].get<std::vector<double>>(), e.scores) << text;
  EXPECT_EQ(j["label"], e.label) << text;
  EXPECT_EQ(j["certificate"]["k"], e.k) << text;
}

const std::vector<std::string> kTexts = {
    "the actor was wonderful",
    "The waiter and the actor were great, said the director.",
    "a dull film",
    "my uncle thought the actress was awful",
};

// One process: exact answers, bad requests, 10,000 requests with bounded memory, SIGTERM.
TEST(FairServeCommand, LrUpstreamAnswersRefusesBadRequestsStaysBoundedAndDrains) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  ServeProcess serve(words("fair serve --upstream lr:" + lr +
                           " --epsilon 0.5 --max-k 16 --max-body 2048 --listen 127.0.0.1:0"),
                     dir.file("serve.err"));
  EXPECT_EQ(serve.host(), "127.0.0.1");
  auto model = models::LrModel::load(lr);
  std::vector<Expected> expected;
  for (const auto& t : kTexts) expected.push_back(expected_answer(*model, t, 0.5, 16));
  EXPECT_GT(expected[1].k, 3u);
  auto c = client(serve.port());
  for (std::size_t i = 0; i < kTexts.size(); ++i)
    expect_answer(post_text(c, kTexts[i]), expected[i], kTexts[i]);

  // Refused, and the next request is answered.
  const std::vector<std::pair<std::string, int>> bad = {
      {"not json", 400},
      {"{\"texts\": \"a\"}", 400},
      {"{\"text\": \"" + std::string(4000, 'x') + "\"}", 413},
  };
  for (const auto& [body, status] : bad) {
    const auto res = c.Post("/predict", body, "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, status) << body.substr(0, 30);
    EXPECT_THAT(res->body, HasSubstr("\"error\""));
    expect_answer(post_text(c, kTexts[0]), expected[0], kTexts[0]);
  }

  // 10,000 requests on two keep-alive connections; every answer checked. Resident memory
  // after 1,000, 5,500 and 10,000: a leak grows it in the second half as in the first.
  constexpr int kRequests = 10'000;
  std::atomic<int> next{0}, wrong{0}, n_done{0};
  std::vector<long> rss(3, 0);
  std::mutex rss_mutex;
  auto loop = [&] {
    auto cc = client(serve.port());
    for (int i; (i = next++) < kRequests;) {
      const std::size_t t = static_cast<std::size_t>(i) % kTexts.size();
      const auto res = post_text(cc, kTexts[t]);
      if (!res || res->status != 200 ||
          nlohmann::json::parse(res->body)["scores"].get<std::vector<double>>() !=
              expected[t].scores) {
        ++wrong;
      }
      const int done = ++n_done;
      if (done == 1'000 || done == 5'500) {
        std::lock_guard lock(rss_mutex);
        rss[done == 1'000 ? 0 : 1] = serve.rss_kb();
      }
    }
  };
  const auto t0 = std::chrono::steady_clock::now();
  std::thread a(loop), b(loop);
  a.join();
  b.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rss[2] = serve.rss_kb();
  EXPECT_EQ(wrong, 0);
  ASSERT_GT(rss[0], 0);
  EXPECT_LT(rss[2] - rss[1], 8 * 1024)
      << "resident kB: " << rss[0] << ", " << rss[1] << ", " << rss[2];
  EXPECT_LT(rss[2] - rss[0], 32 * 1024);
  std::printf("10,000 requests in %.1f s; resident kB after 1,000: %ld, 5,500: %ld, 10,000: %ld\n",
              seconds, rss[0], rss[1], rss[2]);

  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // answers are counted once sent
  const auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(metrics->body,
              HasSubstr("assay_serve_requests_total{path=\"/predict\",status=\"200\"} " +
                        std::to_string(kRequests + 7) + "\n"));
  EXPECT_THAT(metrics->body,
              HasSubstr("assay_serve_requests_total{path=\"/predict\",status=\"413\"} 1\n"));
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
  EXPECT_THAT(serve.stderr_text(), HasSubstr("stopped (SIGTERM)"));
}

// The scikit-learn pipeline over HTTP as the upstream, killed and restarted on its port.
TEST(FairServeCommand, ScikitLearnUpstreamKilledAndRestarted) {
  if (std::system("/usr/bin/python3 -c 'import sklearn' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no sklearn (python3-sklearn)";
  TempDir dir;
  std::string train = "text\tlabel\n";
  for (int i = 0; i < 6; ++i) {
    train += "the actor was wonderful\tpos\na great actor and a great film\tpos\n";
    train += "the actress was awful\tneg\na female lead and a dull film\tneg\n";
  }
  const auto tsv = dir.write("train.tsv", train);
  const std::vector<std::string> upstream_argv{
      "/usr/bin/python3", kModelsData + "/sklearn_server.py", "--train", tsv, "--http"};
  auto start_upstream = [&](int port) {
    auto argv = upstream_argv;
    argv.push_back(std::to_string(port));
    return std::make_unique<assay::testing::ServerProcess>(argv);
  };
  auto upstream = start_upstream(0);
  const int upstream_port = upstream->port();
  const std::string url = upstream->url();
  ServeProcess serve(words("fair serve --upstream http:" + url +
                           " --labels neg,pos --scores-pointer /scores --retries 0 --epsilon 1"
                           " --max-k 8 --listen 127.0.0.1:0 --quiet"),
                     dir.file("serve.err"));
  models::ModelOptions mo;
  mo.labels = {"neg", "pos"};
  mo.http.scores_pointer = "/scores";
  models::HttpModel direct(url, mo);
  std::vector<Expected> expected;
  for (const auto& t : kTexts) expected.push_back(expected_answer(direct, t, 1, 8));
  auto c = client(serve.port());
  for (std::size_t i = 0; i < kTexts.size(); ++i)
    expect_answer(post_text(c, kTexts[i]), expected[i], kTexts[i]);

  upstream.reset();  // SIGKILL
  for (int i = 0; i < 3; ++i) {
    const auto res = post_text(c, kTexts[1]);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 502);
    EXPECT_THAT(res->body, HasSubstr("upstream: http: " + url));
    const auto health = c.Get("/health");
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 200);
  }
  upstream = start_upstream(upstream_port);
  for (std::size_t i = 0; i < kTexts.size(); ++i)
    expect_answer(post_text(c, kTexts[i]), expected[i], kTexts[i]);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // answers are counted once sent
  const auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(metrics->body, HasSubstr("assay_serve_upstream_errors_total 3\n"));
  EXPECT_THAT(metrics->body,
              HasSubstr("assay_serve_requests_total{path=\"/predict\",status=\"502\"} 3\n"));
  EXPECT_EQ(serve.terminate(SIGINT), 0) << serve.stderr_text();
}

// A slow upstream (3 s per text): one request in flight saturates --max-concurrent 1 (503);
// SIGTERM while it is in flight still answers it, then exits 0.
TEST(FairServeCommand, SaturatedThenSigtermDrainsTheRequestInFlight) {
  TempDir dir;
  assay::testing::ServerProcess slow(
      {"/usr/bin/python3", kModelsData + "/http_fault_server.py", "slow"});
  ServeProcess serve(words("fair serve --upstream " + slow.url() +
                           " --labels neg,pos --scores-pointer /scores --epsilon 1 --max-k 1"
                           " --max-concurrent 1 --deadline-ms 20000 --listen 127.0.0.1:0"),
                     dir.file("serve.err"));
  auto in_flight = std::async(std::launch::async, [&] {
    auto c = client(serve.port());
    const auto res = post_text(c, "the film");  // no person noun: one text, 3 s
    return res ? std::make_pair(res->status, res->body) : std::make_pair(-1, std::string());
  });
  auto c = client(serve.port());
  // Wait until the first request is being worked on.
  (void)metrics_once(c, "assay_serve_in_flight 1\n");
  const auto busy = post_text(c, "the film");
  ASSERT_TRUE(busy);
  EXPECT_EQ(busy->status, 503);
  EXPECT_EQ(busy->get_header_value("Retry-After"), "1");
  EXPECT_THAT(busy->body, HasSubstr("1 requests in progress (the server's limit)"));
  const auto health = c.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  ::kill(serve.pid(), SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ::kill(serve.pid(), SIGTERM);  // a second signal while draining changes nothing
  const auto t0 = std::chrono::steady_clock::now();
  const auto [status, body] = in_flight.get();
  EXPECT_EQ(status, 200) << body;
  EXPECT_THAT(body, HasSubstr("\"scores\":[0.25,0.75]"));
  EXPECT_EQ(serve.terminate(0), 0) << serve.stderr_text();  // exits by itself
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10);
  EXPECT_THAT(serve.stderr_text(), HasSubstr("stopped (SIGTERM)"));
}

// The same slow upstream with a 300 ms deadline: 504, and the service keeps answering.
TEST(FairServeCommand, DeadlineGives504AndKeepsServing) {
  TempDir dir;
  assay::testing::ServerProcess slow(
      {"/usr/bin/python3", kModelsData + "/http_fault_server.py", "slow"});
  ServeProcess serve(words("fair serve --upstream " + slow.url() +
                           " --labels neg,pos --scores-pointer /scores --epsilon 1 --max-k 1"
                           " --max-concurrent 2 --deadline-ms 300 --listen 127.0.0.1:0 --quiet"),
                     dir.file("serve.err"));
  auto c = client(serve.port());
  const auto t0 = std::chrono::steady_clock::now();
  const auto late = post_text(c, "the film");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(late);
  EXPECT_EQ(late->status, 504);
  EXPECT_THAT(late->body, HasSubstr("300 ms"));
  EXPECT_LT(seconds, 2.5);
  const auto health = c.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // answers are counted once sent
  const auto metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(metrics->body,
              HasSubstr("assay_serve_requests_total{path=\"/predict\",status=\"504\"} 1\n"));
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
}

// A request answered 504 while its text is still being analysed (a 780 KB text, 0.3 s in a
// release build, against a 20 ms deadline) stops there: the upstream is never asked, the
// abandoned request is counted and its slot is free for the next.
TEST(FairServeCommand, WorkOfARequestAnswered504Stops) {
  TempDir dir;
  assay::testing::ServerProcess slow(
      {"/usr/bin/python3", kModelsData + "/http_fault_server.py", "slow"});
  ServeProcess serve(words("fair serve --upstream " + slow.url() +
                           " --labels neg,pos --scores-pointer /scores --epsilon 1 --max-k 16"
                           " --max-concurrent 1 --deadline-ms 20 --max-body 1000000"
                           " --listen 127.0.0.1:0 --quiet"),
                     dir.file("serve.err"));
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "The actor met the waiter and the king. ";
  auto c = client(serve.port());
  const auto late = post_text(c, text);
  ASSERT_TRUE(late);
  EXPECT_EQ(late->status, 504);
  // The work stops at its next check.
  const std::string metrics = metrics_once(c, "assay_serve_in_flight 0\n");
  EXPECT_THAT(metrics, HasSubstr("assay_serve_in_flight 0\n"));
  EXPECT_THAT(metrics, HasSubstr("assay_serve_abandoned_total 1\n"));
  EXPECT_THAT(metrics, HasSubstr("assay_serve_upstream_texts_total 0\n"));
  EXPECT_THAT(metrics, HasSubstr("assay_serve_upstream_errors_total 0\n"));
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
}

// The perturbation options of `fair perturb`: with --no-analogy --noun-modifiers every answer is
// the neutral layer over the perturbations `fair perturb` gives with the same options (the
// uncle gets no aunt, the doctor its two adjectives; a teen movie gets its two adjectives,
// which the defaults do not give).
TEST(FairServeCommand, PerturbationOptionsAsInFairPerturb) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const std::string options = " --no-analogy --noun-modifiers";
  const std::vector<std::string> texts = {"the doctor was wonderful", "We watched a teen movie.",
                                          "my uncle thought the actress was awful"};
  // The proxy perturbs each text's representative.
  std::string lines;
  for (const auto& t : texts) lines += default_perturbator().neutral_form(t) + "\n";
  const auto r = run_assay(
      dir, "fair perturb --quiet --no-dropped --input " + dir.write("in.txt", lines) + options);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::vector<std::string>> asked;  // each representative, then its perturbations
  std::istringstream out(r.out);
  for (std::string line; std::getline(out, line);) {
    const auto j = nlohmann::json::parse(line);
    asked.push_back({j["text"].get<std::string>()});
    for (const auto& p : j["perturbations"]) {
      EXPECT_EQ(p["kind"], "active") << line;
      asked.back().push_back(p["text"].get<std::string>());
    }
  }
  ASSERT_EQ(asked.size(), texts.size());
  EXPECT_EQ(asked[0].size(), 3u);
  EXPECT_EQ(asked[1].size(), 3u);
  auto model = models::LrModel::load(lr);
  ServeProcess serve(
      words("fair serve --upstream lr:" + lr + " --epsilon 1 --listen 127.0.0.1:0" + options),
      dir.file("serve.err"));
  auto c = client(serve.port());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    expect_answer(post_text(c, texts[i]), expected_from(*model, texts[i], asked[i], 1.0), texts[i]);
  }
  EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
}

// The gate of `fair test`: what it drops is not asked (the certificate's k counts what is
// left), what it keeps is smoothed as without it, and it reports what it did when stopped.
TEST(FairServeCommand, AeonGateDecidesWhatIsAsked) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  const std::string text = "the doctor was wonderful";
  auto model = models::LrModel::load(lr);
  const std::string serve_lr =
      "fair serve --upstream lr:" + lr + " --epsilon 1 --listen 127.0.0.1:0";
  {
    // SemEval can never reach 2: every perturbation is dropped, x0 alone is asked.
    ServeProcess serve(words(serve_lr + " --gate aeon --gate-action drop --gate-sim 2"),
                       dir.file("drop.err"));
    auto c = client(serve.port());
    expect_answer(post_text(c, text), expected_from(*model, text, {text}, 1.0), text);
    EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
    EXPECT_THAT(serve.stderr_text(),
                HasSubstr("aeon gate: 2 perturbations scored, 0 kept, 2 dropped"));
  }
  {
    ServeProcess serve(
        words(serve_lr + " --gate aeon --gate-action drop --gate-sim 0 --gate-nat 0"),
        dir.file("keep.err"));
    auto c = client(serve.port());
    const auto r = run_assay(
        dir, "fair perturb --quiet --no-dropped --input " + dir.write("in.txt", text + "\n"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> asked = {text};
    const auto perturbed = nlohmann::json::parse(r.out);
    for (const auto& p : perturbed["perturbations"]) asked.push_back(p["text"].get<std::string>());
    ASSERT_EQ(asked.size(), 3u);
    expect_answer(post_text(c, text), expected_from(*model, text, asked, 1.0), text);
    EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
    EXPECT_THAT(serve.stderr_text(),
                HasSubstr("aeon gate: 2 perturbations scored, 2 kept, 0 dropped"));
  }
}

// A SIGTERM that the kernel hands to a thread started before the command ran (OpenBLAS's pool
// does not block the signals) stops the server as one sent to the main thread does: exit 0,
// not the interrupt handler's 143. The signal is sent to such a thread directly (tgkill); where
// the process has none, it goes to the process.
TEST(FairServeCommand, SigtermOnAnotherThreadStopsCleanly) {
  TempDir dir;
  const std::string lr = testing::train_biased_lr(dir);
  ASSERT_FALSE(HasFailure());
  ServeProcess serve(words("fair serve --upstream lr:" + lr + " --epsilon 1 --listen 127.0.0.1:0"),
                     dir.file("serve.err"));
  auto c = client(serve.port());
  ASSERT_TRUE(c.Get("/health"));
  const pid_t pid = serve.pid();
  pid_t target = 0;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    const pid_t tid = std::stoi(task.path().filename().string());
    std::ifstream status(task.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("SigBlk:", 0) == 0 && std::stoull(line.substr(7), nullptr, 16) == 0 &&
          tid != pid)
        target = tid;
    }
  }
  if (target != 0) {
    ASSERT_EQ(::syscall(SYS_tgkill, pid, target, SIGTERM), 0);
    EXPECT_EQ(serve.terminate(0), 0) << serve.stderr_text();
  } else {
    EXPECT_EQ(serve.terminate(SIGTERM), 0) << serve.stderr_text();
  }
  EXPECT_THAT(serve.stderr_text(), HasSubstr("stopped (SIGTERM)"));
}

TEST(FairServeCommand, BadOptionsAreUsageErrors) {
  TempDir dir;
  const std::string lr = " --upstream lr:" + dir.write("x.lr", "{}");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"fair serve --epsilon 1", "--upstream"},
      {"fair serve" + lr, "--epsilon"},
      {"fair serve --epsilon -1" + lr, "--epsilon"},
      {"fair serve --epsilon nan" + lr, "--epsilon"},
      {"fair serve --epsilon 1 --max-k 0" + lr, "--max-k"},
      {"fair serve --epsilon 1 --max-concurrent -2" + lr, "--max-concurrent"},
      {"fair serve --epsilon 1 --deadline-ms 0" + lr, "--deadline-ms"},
      {"fair serve --epsilon 1 --max-body 1.5" + lr, "--max-body"},
      {"fair serve --epsilon 1 --max-batch 0" + lr, "--max-batch"},
      {"fair serve --epsilon 1 --max-batch 5000" + lr, "--max-batch"},
      {"fair serve --epsilon 1 --model-name a/b" + lr, "model name 'a/b'"},
      {"fair serve --epsilon 1 --listen 127.0.0.1" + lr, "--listen"},
      {"fair serve --epsilon 1 --listen 127.0.0.1:70000" + lr, "--listen"},
      {"fair serve --epsilon 1 --upstream nothing:here", "unknown model spec"},
      {"fair serve --epsilon 1 --upstream http://127.0.0.1:9/p", "needs its labels"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_assay(dir, args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(message)) << args;
  }
}

}  // namespace
}  // namespace assay::fairness
