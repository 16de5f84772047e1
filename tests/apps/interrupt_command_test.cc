// SIGINT and SIGTERM sent to real, long-running assay processes: the exit code is 128 + the
// signal, no temporary file is left, a resumable command says how to resume, and the rerun
// resumes from what the interrupted one finished.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using assay::testing::read_file;
using assay::testing::run_assay;
using assay::testing::TempDir;
using ::testing::HasSubstr;

// Starts `assay <args>` (split on spaces) with stdout and stderr into files in `dir`.
pid_t start_assay(const TempDir& dir, const std::string& args) {
  std::vector<std::string> words{ASSAY_BINARY};
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "w", stderr))
      ::_exit(98);
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// Waits until `ready()` or `seconds` pass; false on timeout.
bool wait_for(const std::function<bool()>& ready, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

int exit_code_of(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1000 - WTERMSIG(status);
}

bool exited(pid_t pid) {
  return ::waitpid(pid, nullptr, WNOHANG) == pid;
}

void expect_no_temporary_files(const TempDir& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
  }
}

// Ratings of `users` users over `items` items (every third pair rated).
std::string ratings_csv(int users, int items) {
  std::string s = "user,item,rating\n";
  for (int u = 0; u < users; ++u) {
    for (int i = 0; i < items; ++i) {
      if ((u * 7 + i * 3) % 3 == 0) {
        s += std::to_string(u) + "," + std::to_string(i) + "," + std::to_string(1 + (u + i) % 5) +
             "\n";
      }
    }
  }
  return s;
}

TEST(InterruptCommand, CampaignInterruptedBySigintSaysHowToResumeAndTheRerunResumes) {
  TempDir dir;
  const std::string data = dir.write("ratings.csv", ratings_csv(60, 40));
  const std::string store = dir.file("store.db"), out = dir.file("report");
  const std::string cmd = "rec campaign --data csv:" + data +
                          " --algorithms user-user --heuristics AMU --sizes 1 --trials 100000 "
                          "--noise-trials 1 --threads 1 --store " +
                          store + " --out " + out;
  const pid_t pid = start_assay(dir, cmd);
  // Let it finish some runs: counted in the store's runs table through a second, read-only
  // connection (the store's size is no measure: its set-up alone grows it, and the first
  // unit is the noise run, which the summary does not count as a run).
  const auto finished_runs = [&] {
    sqlite3* db = nullptr;
    sqlite3_int64 n = 0;
    if (sqlite3_open_v2(store.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
      sqlite3_busy_timeout(db, 1000);
      sqlite3_stmt* st = nullptr;
      if (sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &st, nullptr) == SQLITE_OK &&
          sqlite3_step(st) == SQLITE_ROW) {
        n = sqlite3_column_int64(st, 0);
      }
      sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
  };
  ASSERT_TRUE(wait_for([&] { return fs::exists(store) || exited(pid); }, 60));
  const bool progressed = wait_for([&] { return finished_runs() >= 2 || exited(pid); }, 120);
  ASSERT_FALSE(exited(pid)) << "finished before the interrupt: make the campaign longer";
  ::kill(pid, SIGINT);
  EXPECT_EQ(exit_code_of(pid), 130);
  const std::string err = read_file(dir.file("stderr.txt"));
  EXPECT_TRUE(progressed) << err;
  EXPECT_THAT(err, HasSubstr("interrupted (SIGINT); finished runs are kept in " + store +
                             "; rerun the same command to resume"));
  expect_no_temporary_files(dir);
  EXPECT_FALSE(fs::exists(out + "/summary.json"));

  // The rerun (stopped after one more run, to keep the test short) resumes from the store.
  const auto r = run_assay(dir, cmd + " --quiet --stop-after 1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string marker = "(1 executed now, ";
  const auto at = r.out.find(marker);
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_GT(std::stoul(r.out.substr(at + marker.size())), 0u) << r.out;  // runs resumed
}

TEST(InterruptCommand, PerturbInterruptedBySigtermLeavesNoTemporaryOutput) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "he said his brother and the king went home " + std::to_string(i) + "\n";
  const std::string in = dir.write("inputs.txt", text);
  const std::string out = dir.file("perturbed.jsonl");
  const pid_t pid = start_assay(dir, "fair perturb --input " + in + " --out " + out);
  // Wait until the temporary output exists (the work has started).
  const bool started = wait_for(
      [&] {
        for (const auto& e : fs::directory_iterator(dir.path())) {
          if (e.path().string().find(".tmp-") != std::string::npos) return true;
        }
        return exited(pid);
      },
      60);
  ASSERT_TRUE(started);
  ASSERT_FALSE(exited(pid)) << "finished before the interrupt: make the input longer";
  ::kill(pid, SIGTERM);
  EXPECT_EQ(exit_code_of(pid), 143);
  EXPECT_THAT(read_file(dir.file("stderr.txt")), HasSubstr("interrupted (SIGTERM)"));
  expect_no_temporary_files(dir);
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
