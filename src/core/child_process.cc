#include "core/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/error.h"

extern char** environ;

namespace assay::core {

std::vector<std::string> split_command_words(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'' || c == '"') {
      in_word = true;
      const std::size_t close = command.find(c, i + 1);
      std::size_t j = i + 1;
      for (; j < command.size() && command[j] != c; ++j) {
        if (c == '"' && command[j] == '\\' && j + 1 < command.size() &&
            (command[j + 1] == '"' || command[j + 1] == '\\')) {
          ++j;
        }
        word.push_back(command[j]);
      }
      if (close == std::string::npos || j >= command.size()) {
        throw UsageError("unclosed " + std::string(1, c) + " in the command '" + command + "'");
      }
      i = j;
    } else {
      in_word = true;
      word.push_back(c);
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::string resolve_program(const std::string& program) {
  namespace fs = std::filesystem;
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = dirs.find(':', start);
    const std::string dir =
        dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate)) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return {};
}

void ignore_sigpipe() {
  static const bool done = [] {
    struct sigaction action {};
    sigaction(SIGPIPE, nullptr, &action);
    if (action.sa_handler == SIG_DFL) {
      action.sa_handler = SIG_IGN;
      sigaction(SIGPIPE, &action, nullptr);
    }
    return true;
  }();
  (void)done;
}

ChildProcess spawn_child(const std::vector<std::string>& words, bool own_group) {
  if (words.empty() || words[0].empty()) throw UsageError("an empty command names no program");
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0)
    throw Error(std::string("cannot create pipes: ") + std::strerror(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(in[0]);
    ::close(in[1]);
    throw Error(std::string("cannot create pipes: ") + std::strerror(e));
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    const int e = errno;
    for (const int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
    throw Error(std::string("cannot create pipes: ") + std::strerror(e));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  std::vector<std::string> copy = words;
  std::vector<char*> argv;
  for (auto& w : copy) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (own_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    ::close(err[0]);
    throw Error("cannot start '" + words[0] + "': " + std::strerror(rc) +
                (rc == ENOENT ? " (not found in PATH)" : ""));
  }
  return {pid, in[1], out[0], err[0], own_group ? pid : -1};
}

void close_pipes(ChildProcess& child) {
  for (int* fd : {&child.stdin_fd, &child.stdout_fd, &child.stderr_fd}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

int reap(ChildProcess& child) {
  int status = 0;
  if (child.pid < 0) return status;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  child.pid = -1;
  return status;
}

int kill_and_reap(ChildProcess& child) {
  if (child.pid < 0) return 0;
  ::kill(child.group > 0 ? -child.group : child.pid, SIGKILL);
  return reap(child);
}

void kill_group(const ChildProcess& child) {
  if (child.group > 0) ::kill(-child.group, SIGKILL);  // ESRCH: nothing was left
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  }
  return "ended";
}

}  // namespace assay::core
