// Resume asks nothing twice: `model predict` and `fair test` with a real cmd: model (a Python
// child that appends every text it answers to a log, after writing the answer) are stopped by
// SIGINT, SIGTERM or SIGHUP at points drawn from a seeded generator, while batches are in
// flight; the rerun with the same answer cache must ask the child only texts it never answered
// in the interrupted run, and finish with every answer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using assay::testing::read_file;
using assay::testing::TempDir;
using ::testing::HasSubstr;

// Scores from the text's length; logs each text (one JSON string a line) once answered.
const char* kChild = R"(import json, os, sys, time
log = open(os.environ["ASSAY_TEST_ANSWER_LOG"], "a")
print(json.dumps({"labels": ["neg", "pos"]}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    time.sleep(0.0005)
    s = (len(request["text"]) % 7) / 7.0
    sys.stdout.write(json.dumps({"id": request["id"], "scores": [1 - s, s]}) + "\n")
    sys.stdout.flush()
    log.write(json.dumps(request["text"]) + "\n")
    log.flush()
)";

// Starts assay with `args` (no shell), the answer log named in the environment, stdout and
// stderr into files in `dir`.
pid_t start_assay(const TempDir& dir, std::vector<std::string> args, const std::string& log) {
  args.insert(args.begin(), ASSAY_BINARY);
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("ASSAY_TEST_ANSWER_LOG", log.c_str(), 1);
    if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "w", stderr))
      ::_exit(98);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1000 - WTERMSIG(status);
}

std::vector<std::string> logged(const std::string& path) {
  std::vector<std::string> texts;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) texts.push_back(line);
  return texts;
}

std::size_t count_lines(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

struct Case {
  std::string name;
  std::vector<std::string> args;  // {model} and {cache} are filled in
  std::size_t n_texts;
};

void run_case(const Case& c, std::uint32_t seed) {
  SCOPED_TRACE(c.name + ", seed " + std::to_string(seed));
  TempDir dir;
  const std::string child = dir.write("child.py", kChild);
  std::string texts;
  for (std::size_t i = 0; i < c.n_texts; ++i)
    texts += "the king number " + std::to_string(i) + " said his brother is here\n";
  const std::string input = dir.write("texts.txt", texts);
  const std::string cache = dir.file("answers.sqlite");
  std::vector<std::string> args;
  for (std::string a : c.args) {
    if (a == "{model}") a = "cmd:/usr/bin/python3 " + child;
    if (a == "{cache}") a = cache;
    if (a == "{input}") a = input;
    if (a == "{out}") a = dir.file("out");
    args.push_back(a);
  }
  std::mt19937 rng(seed);
  const int signals[] = {SIGINT, SIGTERM, SIGHUP};
  const int sig = signals[std::uniform_int_distribution<int>(0, 2)(rng)];
  const std::size_t kill_after = std::uniform_int_distribution<std::size_t>(20, 600)(rng);

  const std::string log1 = dir.file("answered-1.log");
  const pid_t pid = start_assay(dir, args, log1);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  bool reached = false;
  while (std::chrono::steady_clock::now() < give_up) {
    if (count_lines(log1) >= kill_after) {
      reached = true;
      break;
    }
    if (::waitpid(pid, nullptr, WNOHANG) == pid) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_TRUE(reached) << "the run ended before " << kill_after
                       << " answers: " << read_file(dir.file("stderr.txt"));
  ::kill(pid, sig);
  EXPECT_EQ(wait_exit(pid), 128 + sig) << read_file(dir.file("stderr.txt"));
  const std::string err1 = read_file(dir.file("stderr.txt"));
  EXPECT_THAT(err1, HasSubstr("assay: interrupted (")) << err1;
  for (const auto& e : fs::recursive_directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the orphaned child's last lines
  const auto answered = logged(log1);
  const std::set<std::string> answered1(answered.begin(), answered.end());
  ASSERT_GE(answered1.size(), kill_after);

  const std::string log2 = dir.file("answered-2.log");
  const pid_t rerun = start_assay(dir, args, log2);
  const int code = wait_exit(rerun);  // fair test: 1 when it finds violations
  EXPECT_TRUE(code == 0 || code == 1) << code << ": " << read_file(dir.file("stderr.txt"));
  std::size_t asked_again = 0;
  std::string first_again;
  for (const auto& t : logged(log2)) {
    if (answered1.contains(t)) {
      if (asked_again++ == 0) first_again = t;
    }
  }
  EXPECT_EQ(asked_again, 0u) << "the rerun asked " << asked_again << " texts answered before the "
                             << strsignal(sig) << " after " << answered1.size() << " answers, e.g. "
                             << first_again;
  EXPECT_FALSE(logged(log2).empty()) << "the interrupted run had answered everything";
}

TEST(ResumeCommand, ModelPredictInterruptedAtRandomPointsAsksNoAnsweredTextAgain) {
  const Case c{"model predict",
               {"model", "predict", "--quiet", "--model", "{model}", "--cache", "{cache}",
                "--batch", "256", "--input", "{input}", "--out", "{out}"},
               4000};
  for (std::uint32_t seed : {1u, 2u, 3u}) run_case(c, seed);
}

TEST(ResumeCommand, FairTestInterruptedAtRandomPointsAsksNoAnsweredTextAgain) {
  const Case c{"fair test",
               {"fair", "test", "--quiet", "--model", "{model}", "--cache", "{cache}", "--batch",
                "256", "--input", "{input}", "--out", "{out}"},
               400};
  for (std::uint32_t seed : {4u, 5u, 6u}) run_case(c, seed);
}

}  // namespace
