// `assay fair serve` started for a test: runs the assay binary with `args` (split on blanks),
// its stdout on a pipe and its stderr in a file, waits for the line "listening on
// http://HOST:PORT" and keeps the port. terminate() sends a signal and returns the exit status;
// the destructor kills what is left (SIGKILL). Under AddressSanitizer the child's quarantine is
// kept small (8 MB, 64 kB per thread), so its resident memory measures the program, not the
// sanitizer.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace assay::fairness::testing {

// A command line split on blanks (the tests' arguments hold none inside a word).
inline std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

class ServeProcess {
 public:
  ServeProcess(const std::vector<std::string>& args, const std::string& stderr_path,
               double start_timeout = 120)
      : stderr_path_(stderr_path) {
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::vector<std::string> argv{ASSAY_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargs;
    for (auto& a : argv) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    std::vector<std::string> env;
    bool has_asan = false;
    for (char** e = environ; *e; ++e) {
      std::string v = *e;
      if (v.rfind("ASAN_OPTIONS=", 0) == 0) {
        v += ":quarantine_size_mb=8:thread_local_quarantine_size_kb=64";
        has_asan = true;
      }
      env.push_back(v);
    }
    if (!has_asan)
      env.push_back("ASAN_OPTIONS=quarantine_size_mb=8:thread_local_quarantine_size_kb=64");
    std::vector<char*> cenv;
    for (auto& v : env) cenv.push_back(v.data());
    cenv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, cargs[0], &actions, nullptr, cargs.data(), cenv.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (rc != 0) {
      ::close(out[0]);
      throw std::runtime_error("cannot start assay");
    }
    out_ = out[0];
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int>(start_timeout * 1000));
    while (line_.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char c[256];
      const ssize_t n = ::read(out_, c, sizeof c);
      if (n <= 0) break;
      line_.append(c, static_cast<std::size_t>(n));
    }
    const std::string prefix = "listening on http://";
    const std::size_t colon = line_.rfind(':');
    if (line_.rfind(prefix, 0) != 0 || colon == std::string::npos) {
      kill_now();
      throw std::runtime_error("fair serve did not report its address: '" + line_ +
                               "'; stderr: " + stderr_text());
    }
    host_ = line_.substr(prefix.size(), colon - prefix.size());
    port_ = std::stoi(line_.substr(colon + 1));
  }
  ~ServeProcess() {
    kill_now();
    if (out_ >= 0) ::close(out_);
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  int port() const { return port_; }
  const std::string& host() const { return host_; }
  pid_t pid() const { return pid_; }

  // Sends `sig` (0: none) and waits (at most `timeout` seconds, then SIGKILL) for the exit.
  // Returns the exit code, or 128 + the signal that ended it.
  int terminate(int sig = SIGTERM, double timeout = 60) {
    if (pid_ <= 0) return -1;
    if (sig != 0) ::kill(pid_, sig);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int>(timeout * 1000));
    int status = 0;
    for (;;) {
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) break;
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      ::usleep(10000);
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  // Resident memory of the process (VmRSS, kB); 0 when unknown.
  long rss_kb() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    }
    return 0;
  }

  std::string stderr_text() const {
    std::ifstream in(stderr_path_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

 private:
  void kill_now() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
      pid_ = -1;
    }
  }
  std::string stderr_path_;
  pid_t pid_ = -1;
  int out_ = -1;
  std::string line_, host_;
  int port_ = 0;
};

}  // namespace assay::fairness::testing
