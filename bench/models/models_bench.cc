// Speed of the model-under-test layer (figures in docs/models.md):
//   models_bench cmd N        cmd: adapter vs a raw pipe round trip of the same bytes, batch 64
//   models_bench http N       http: requests/s at concurrency 8 against a local cpp-httplib server
//   models_bench cache N      answer-cache hits/s through CachedModel
//   models_bench lr DIR       LR training time and predictions/s on rt-polarity (DIR)
//   models_bench child        the trivial child the cmd figures use (JSON lines, fixed answer)
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <httplib.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "models/cached_model.h"
#include "models/command_model.h"
#include "models/http_model.h"
#include "models/lr_model.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using assay::models::ModelOptions;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<std::string> texts(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back("a fairly ordinary movie review sentence number " + std::to_string(i));
  }
  return out;
}

// The trivial model: answers every {"id": N, ...} line with fixed scores, no JSON parsing.
int run_child() {
  std::printf("{\"labels\": [\"neg\", \"pos\"]}\n");
  std::fflush(stdout);
  std::string line;
  std::string out;
  char buffer[1 << 16];
  std::string pending;
  for (;;) {
    const ssize_t n = ::read(0, buffer, sizeof buffer);
    if (n <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(n));
    std::size_t begin = 0, newline;
    out.clear();
    while ((newline = pending.find('\n', begin)) != std::string::npos) {
      const std::size_t id = pending.find("\"id\":", begin) + 5;
      const std::size_t end = pending.find_first_of(",}", id);
      out += "{\"id\":" + pending.substr(id, end - id) + ",\"scores\":[0.25,0.75]}\n";
      begin = newline + 1;
    }
    pending.erase(0, begin);
    for (std::size_t done = 0; done < out.size();) {
      const ssize_t w = ::write(1, out.data() + done, out.size() - done);
      if (w <= 0) return 1;
      done += static_cast<std::size_t>(w);
    }
  }
  return 0;
}

// Raw floor: the same request bytes written to the same child and its answer bytes read back,
// 64 lines at a time, with no JSON work on our side.
double raw_pipe_seconds(const std::string& self, const std::vector<std::string>& all) {
  int in[2], out[2];
  if (::pipe(in) != 0 || ::pipe(out) != 0) std::abort();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addclose(&fa, in[1]);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  std::string arg0 = self, arg1 = "child";
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid;
  if (posix_spawn(&pid, self.c_str(), &fa, nullptr, argv, environ) != 0) std::abort();
  ::close(in[0]);
  ::close(out[1]);
  char buffer[1 << 16];
  auto read_lines = [&](std::size_t n_lines) {
    std::size_t seen = 0;
    while (seen < n_lines) {
      const ssize_t n = ::read(out[0], buffer, sizeof buffer);
      if (n <= 0) std::abort();
      seen += static_cast<std::size_t>(std::count(buffer, buffer + n, '\n'));
    }
  };
  read_lines(1);  // labels
  const auto t0 = Clock::now();
  std::int64_t id = 0;
  for (std::size_t begin = 0; begin < all.size(); begin += 64) {
    const std::size_t end = std::min(all.size(), begin + 64);
    std::string request;
    for (std::size_t i = begin; i < end; ++i) {
      request += "{\"id\":" + std::to_string(id++) + ",\"text\":\"" + all[i] + "\"}\n";
    }
    for (std::size_t done = 0; done < request.size();) {
      const ssize_t w = ::write(in[1], request.data() + done, request.size() - done);
      if (w <= 0) std::abort();
      done += static_cast<std::size_t>(w);
    }
    read_lines(end - begin);
  }
  const double s = seconds_since(t0);
  ::close(in[1]);
  ::close(out[0]);
  int status;
  ::waitpid(pid, &status, 0);
  return s;
}

int bench_cmd(const std::string& self, std::size_t n) {
  const auto all = texts(n);
  std::vector<double> raw, adapter;
  for (int r = 0; r < 5; ++r) {
    raw.push_back(raw_pipe_seconds(self, all));
    assay::models::CommandModel model(self + " child", ModelOptions{});
    (void)model.labels();  // starts the child (and reads its labels) outside the timing
    const auto t0 = Clock::now();
    for (std::size_t begin = 0; begin < n; begin += 64) {
      const std::vector<std::string> batch(
          all.begin() + static_cast<std::ptrdiff_t>(begin),
          all.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + 64)));
      model.predict(batch);
    }
    adapter.push_back(seconds_since(t0));
  }
  const double floor = median(raw), ours = median(adapter);
  std::printf(
      "cmd: %zu texts in batches of 64, median of 5: raw pipe %.1f ms (%.0f texts/s), "
      "adapter %.1f ms (%.0f texts/s), %.2fx the floor\n",
      n, floor * 1e3, static_cast<double>(n) / floor, ours * 1e3, static_cast<double>(n) / ours,
      ours / floor);
  return 0;
}

int bench_http(std::size_t n) {
  httplib::Server server;
  // Enough workers for every kept-alive client connection (the default pool is 8).
  server.new_task_queue = [] { return new httplib::ThreadPool(32); };
  server.set_keep_alive_max_count(100000);
  server.set_tcp_nodelay(true);
  server.Post("/predict", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"scores\":[0.25,0.75]}", "application/json");
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread thread([&] { server.listen_after_bind(); });
  ModelOptions options;
  options.labels = {"neg", "pos"};
  options.http.scores_pointer = "/scores";
  options.http.concurrency = 8;
  const auto all = texts(n);
  std::vector<double> runs;
  for (int r = 0; r < 5; ++r) {
    assay::models::HttpModel model("http://127.0.0.1:" + std::to_string(port) + "/predict",
                                   options);
    const auto t0 = Clock::now();
    for (std::size_t begin = 0; begin < n; begin += 64) {
      const std::vector<std::string> batch(
          all.begin() + static_cast<std::ptrdiff_t>(begin),
          all.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + 64)));
      model.predict(batch);
    }
    runs.push_back(seconds_since(t0));
  }
  server.stop();
  thread.join();
  const double s = median(runs);
  std::printf(
      "http: %zu requests ({text} template, concurrency 8, batches of 64), median of 5: "
      "%.1f ms, %.0f requests/s\n",
      n, s * 1e3, static_cast<double>(n) / s);
  return 0;
}

int bench_cache(std::size_t n) {
  char dir_template[] = "/tmp/models-bench-XXXXXX";
  const std::string dir = ::mkdtemp(dir_template);
  const std::string path = dir + "/cache.sqlite";
  auto model = assay::models::LrModel::train({"good fun", "bad dull"}, {"pos", "neg"});
  const auto identity = model->identity();
  auto cache = std::make_shared<assay::models::AnswerCache>(path);
  const auto all = texts(n);
  auto t0 = Clock::now();
  for (std::size_t begin = 0; begin < n; begin += 1000) {
    const std::vector<std::string> chunk(
        all.begin() + static_cast<std::ptrdiff_t>(begin),
        all.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + 1000)));
    cache->store(identity, chunk, model->predict(chunk));
  }
  const double fill = seconds_since(t0);
  assay::models::CachedModel cached(std::move(model), cache);
  std::vector<double> runs;
  for (int r = 0; r < 5; ++r) {
    t0 = Clock::now();
    for (std::size_t begin = 0; begin < n; begin += 64) {
      const std::vector<std::string> batch(
          all.begin() + static_cast<std::ptrdiff_t>(begin),
          all.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + 64)));
      cached.predict(batch);
    }
    runs.push_back(seconds_since(t0));
  }
  const double s = median(runs);
  std::printf(
      "cache: %zu answers stored in %.0f ms (%.0f/s, transactions of 1000); hits through "
      "CachedModel in batches of 64, median of 5: %.0f ms, %.0f hits/s (%llu hits)\n",
      n, fill * 1e3, static_cast<double>(n) / fill, s * 1e3, static_cast<double>(n) / s,
      static_cast<unsigned long long>(cached.n_hits()));
  std::remove((path + "-wal").c_str());
  std::remove((path + "-shm").c_str());
  std::remove(path.c_str());
  ::rmdir(dir.c_str());
  return 0;
}

int bench_lr(const std::string& data) {
  std::vector<std::string> all, labels;
  for (const char* name : {"pos", "neg"}) {
    std::ifstream in(data + "/rt-polarity." + name, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
      all.push_back(line);
      labels.push_back(name);
    }
  }
  std::vector<double> train, predict;
  std::unique_ptr<assay::models::LrModel> model;
  assay::models::LrTrainSummary summary;
  for (int r = 0; r < 5; ++r) {
    auto t0 = Clock::now();
    model = assay::models::LrModel::train(all, labels, {}, &summary);
    train.push_back(seconds_since(t0));
    t0 = Clock::now();
    model->predict(all);
    predict.push_back(seconds_since(t0));
  }
  std::printf(
      "lr: train on all %zu rt-polarity sentences (%zu features, %d L-BFGS iterations), "
      "median of 5: %.0f ms; predict them: %.1f ms, %.0f predictions/s\n",
      all.size(), summary.n_features, summary.n_iterations, median(train) * 1e3,
      median(predict) * 1e3, static_cast<double>(all.size()) / median(predict));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const std::string self = "/proc/self/exe";
  char path[4096];
  const ssize_t len = ::readlink(self.c_str(), path, sizeof path - 1);
  const std::string exe = len > 0 ? std::string(path, static_cast<std::size_t>(len)) : argv[0];
  try {
    if (what == "child") return run_child();
    if (what == "cmd") return bench_cmd(exe, argc > 2 ? std::stoul(argv[2]) : 100000);
    if (what == "http") return bench_http(argc > 2 ? std::stoul(argv[2]) : 20000);
    if (what == "cache") return bench_cache(argc > 2 ? std::stoul(argv[2]) : 200000);
    if (what == "lr" && argc > 2) return bench_lr(argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "models_bench: %s\n", e.what());
    return 3;
  }
  std::fprintf(stderr, "usage: models_bench cmd N | http N | cache N | lr DIR | child\n");
  return 2;
}
