#include "recsys/command_recommender.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "core/child_process.h"
#include "core/interrupt.h"
#include "core/json_depth.h"
#include "core/line_reader.h"
#include "core/sha256.h"
#include "recsys/top_k_answer.h"

namespace assay::recsys {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::string_view kOneShot = "cmd:";
constexpr std::string_view kPersistent = "cmd+persistent:";

std::string shorten(std::string_view text) {
  return TopKAnswer::shorten(text);
}

// Keeps the last `limit` bytes of what a child writes (cut at a line start when possible).
void append_tail(std::string& tail, const char* data, std::size_t n, std::size_t limit) {
  tail.append(data, n);
  if (tail.size() > 2 * limit) tail.erase(0, tail.size() - limit);
}
std::string finish_tail(std::string tail, std::size_t limit) {
  if (tail.size() > limit) {
    tail.erase(0, tail.size() - limit);
    const auto newline = tail.find('\n');
    if (newline != std::string::npos && newline + 1 < tail.size()) tail.erase(0, newline + 1);
  }
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  return tail;
}

// A private directory under $TMPDIR (or /tmp); throws core::IoError.
std::string make_private_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/assay-rec-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw core::IoError("cannot create a temporary directory " + pattern + ": " +
                        std::strerror(errno));
  }
  return pattern;
}

// One training's directory, removed when it ends; an interrupt (core/interrupt.h) removes it
// and the files assay names in it too.
struct TrainingDir {
  std::string path;
  std::vector<int> slots;  // interrupt registrations: the directory, then its files
  explicit TrainingDir(const std::string& work_dir, std::uint64_t n) {
    path = work_dir + "/t" + std::to_string(::getpid()) + "-" + std::to_string(n);
    std::error_code ec;
    fs::remove_all(path, ec);
    if (!fs::create_directories(path, ec) || ec) {
      throw core::IoError("cannot create the training directory " + path + ": " +
                          (ec ? ec.message() : std::string("it exists")));
    }
    slots.push_back(core::register_temp_file(path));
    for (const char* name : {"/train.tsv", "/users.txt", "/top.out"})
      slots.push_back(core::register_temp_file(path + name));
  }
  ~TrainingDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
    for (const int slot : slots) core::unregister_temp_file(slot);
  }
  TrainingDir(const TrainingDir&) = delete;
  TrainingDir& operator=(const TrainingDir&) = delete;
};

void write_checked(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw core::IoError("cannot write " + path + ": " + std::strerror(errno));
}

void write_training_files(const Ratings& train, const std::string& train_path,
                          const std::string& users_path) {
  std::string text;
  text.reserve(train.n_ratings() * 16);
  for (UserId u = 0; u < train.n_users(); ++u) {
    const auto items = train.items_of(u);
    const auto values = train.values_of_user(u);
    for (std::size_t j = 0; j < items.size(); ++j) {
      text.append(train.user_label(u)).push_back('\t');
      text.append(train.item_label(items[j])).push_back('\t');
      text.append(rating_text(values[j])).push_back('\n');
    }
  }
  write_checked(train_path, text);
  text.clear();
  for (UserId u = 0; u < train.n_users(); ++u) text.append(train.user_label(u)).push_back('\n');
  write_checked(users_path, text);
}

// An id in OUTPUT: a string, or an integer written in decimal.
bool id_text(const nlohmann::json& j, std::string& out) {
  if (j.is_string()) {
    out = j.get<std::string>();
    return true;
  }
  if (j.is_number_integer()) {
    out = j.is_number_unsigned() ? std::to_string(j.get<std::uint64_t>())
                                 : std::to_string(j.get<std::int64_t>());
    return true;
  }
  return false;
}

// Reads OUTPUT into everyone's list; throws the failure reason as a std::string.
TopKLists read_output(const std::string& path, const Ratings& train, std::size_t k,
                      std::size_t max_line_bytes) {
  if (!fs::is_regular_file(path)) throw std::string("it wrote no output file");
  TopKAnswer answer(train, k);
  core::LineReader reader(path);
  reader.set_max_line_bytes(max_line_bytes);
  std::string_view line;
  std::uint64_t n = 0;
  constexpr UserId kNone = std::numeric_limits<UserId>::max();
  UserId tsv_user = kNone;  // the user of the previous TSV line
  auto where = [&] { return "output line " + std::to_string(n) + ": "; };
  auto malformed = [&](const std::string& what) -> std::string {
    return "malformed output: " + where() + what;
  };
  try {
    while (reader.next(line)) {
      ++n;
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      if (line.front() == '{') {
        tsv_user = kNone;
        if (core::json_nests_deeper(line)) throw malformed(core::json_too_deep_reason());
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
          throw malformed("not a JSON object: '" + shorten(line) + "'");
        }
        std::string label;
        const auto user = j.find("user");
        const auto items = j.find("items");
        if (user == j.end() || !id_text(*user, label) || items == j.end() || !items->is_array()) {
          throw malformed("expected {\"user\": ID, \"items\": [ID, ...]}, got '" + shorten(line) +
                          "'");
        }
        const UserId u = answer.user(label);
        answer.start_list(u);
        for (const auto& entry : *items) {
          std::string item;
          const nlohmann::json& id =
              entry.is_object() && entry.contains("item") ? entry["item"] : entry;
          if (!id_text(id, item)) {
            throw malformed("an item must be a string or an integer, got " + shorten(entry.dump()));
          }
          answer.add_item(u, item);
        }
      } else {
        const std::size_t tab = line.find('\t');
        if (tab == std::string_view::npos || tab == 0) {
          throw malformed("expected user<TAB>item or a JSON object, got '" + shorten(line) + "'");
        }
        const std::size_t tab2 = line.find('\t', tab + 1);
        const std::string user_label(line.substr(0, tab));
        const std::string item_label(line.substr(
            tab + 1, tab2 == std::string_view::npos ? std::string_view::npos : tab2 - tab - 1));
        if (item_label.empty()) throw malformed("an empty item id");
        const UserId u = answer.user(user_label);
        if (tsv_user != u) {  // a new user's block starts
          if (answer.started(u)) {
            throw malformed("the lines of user '" + user_label +
                            "' are not together (a list is one block of lines, best first)");
          }
          answer.start_list(u);
          tsv_user = u;
        }
        answer.add_item(u, item_label);
      }
    }
    return answer.finish();
  } catch (const TopKAnswerError& e) {
    switch (e.kind) {
      case TopKAnswerError::Kind::kMalformed:
        throw malformed(e.what);
      case TopKAnswerError::Kind::kRated:
        throw e.what + " (" + where() + shorten(line) + ")";
      case TopKAnswerError::Kind::kIncomplete:
        break;
    }
    throw "incomplete output: " + e.what;
  } catch (const core::Error& e) {
    throw "malformed output: " + std::string(e.what());
  }
}

}  // namespace

RecommenderFailure::RecommenderFailure(const std::string& adapter, std::string reason,
                                       std::string stderr_tail)
    : core::Error(adapter + ": " + reason +
                  (stderr_tail.empty() ? std::string()
                                       : "\n--- the end of its stderr ---\n" + stderr_tail)),
      reason_(std::move(reason)),
      stderr_tail_(std::move(stderr_tail)) {}

bool is_command_spec(std::string_view spec) {
  return spec.starts_with(kOneShot) || spec.starts_with(kPersistent);
}

// A running persistent child.
struct CommandRecommender::Child {
  core::ChildProcess process;
  std::string pending;    // stdout bytes not yet forming a line
  bool reusable = false;  // it answered {"error": ...}: alive and in step, so kept
  ~Child() {
    if (process.pid >= 0) {
      core::close_pipes(process);  // end of input: a well-behaved child exits by itself
      const auto deadline = Clock::now() + std::chrono::seconds(2);
      int status = 0;
      while (Clock::now() < deadline) {
        if (::waitpid(process.pid, &status, WNOHANG) == process.pid) {
          process.pid = -1;
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      core::kill_and_reap(process);
    }
    core::kill_group(process);
    core::close_pipes(process);
  }
};

struct CommandRecommender::Impl {
  std::string spec;
  std::vector<std::string> words;
  bool persistent = false;
  CommandRecommenderOptions options;
  std::string work_dir;
  bool private_dir = false;
  int private_dir_slot = -1;  // its interrupt registration (removed, once emptied, on Ctrl-C)
  std::mutex mutex;
  std::vector<std::unique_ptr<Child>> idle;  // persistent children between trainings

  [[noreturn]] void fail(const std::string& reason, const std::string& tail) const {
    throw RecommenderFailure(spec, reason, finish_tail(tail, options.stderr_tail_bytes));
  }

  // Serves the child's stdout and stderr until: `want_line` and a whole stdout line is read
  // (returned in `line`), or both streams end (one-shot), or the deadline passes (false).
  // With `exit_status` (one-shot), the program's exit also ends the wait (a process it left
  // behind may hold the pipes open): what is already in the pipes is read, and p.pid is -1.
  bool serve(core::ChildProcess& p, std::string& pending, std::string& tail, bool want_line,
             std::string& line, Clock::time_point deadline, int* exit_status = nullptr) const {
    bool out_open = p.stdout_fd >= 0, err_open = p.stderr_fd >= 0;
    char buffer[65536];
    bool exited = false;
    for (;;) {
      if (exit_status && !exited && ::waitpid(p.pid, exit_status, WNOHANG) == p.pid) {
        p.pid = -1;
        exited = true;
        deadline = std::min(deadline, Clock::now() + std::chrono::milliseconds(100));
      }
      if (want_line) {
        const auto newline = pending.find('\n');
        if (newline != std::string::npos) {
          line = pending.substr(0, newline);
          pending.erase(0, newline + 1);
          if (!line.empty() && line.back() == '\r') line.pop_back();
          return true;
        }
        if (pending.size() > options.max_line_bytes) {
          fail("an answer line longer than " + std::to_string(options.max_line_bytes) +
                   " bytes (expected {\"done\": true})",
               tail);
        }
        if (!out_open) return true;  // EOF before a line: line stays empty
      } else if (!out_open && !err_open) {
        return true;
      }
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return exited;
      pollfd fds[2] = {{out_open ? p.stdout_fd : -1, POLLIN, 0},
                       {err_open ? p.stderr_fd : -1, POLLIN, 0}};
      const int ready = ::poll(
          fds, 2, static_cast<int>(std::min<long long>(left, exit_status && !exited ? 20 : 1000)));
      if (ready < 0 && errno != EINTR)
        fail(std::string("poll failed: ") + std::strerror(errno), tail);
      if (ready <= 0) continue;
      if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = ::read(p.stdout_fd, buffer, sizeof buffer);
        if (n > 0) {
          if (want_line) {
            pending.append(buffer, static_cast<std::size_t>(n));
          }  // one-shot: stdout is the program's own business; read and dropped
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          out_open = false;
        }
      }
      if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = ::read(p.stderr_fd, buffer, sizeof buffer);
        if (n > 0) {
          append_tail(tail, buffer, static_cast<std::size_t>(n), options.stderr_tail_bytes);
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          err_open = false;
        }
      }
    }
  }

  std::string timeout_text() const {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, options.timeout_seconds);
    return std::string(buf, r.ptr);
  }

  // Returns the tail of the program's stderr.
  std::string run_once(const std::string& dir, std::size_t k, std::uint64_t seed) {
    std::vector<std::string> argv = words;
    argv.insert(argv.end(), {dir + "/train.tsv", dir + "/users.txt", std::to_string(k),
                             std::to_string(seed), dir + "/top.out"});
    core::ChildProcess p;
    try {
      p = core::spawn_child(argv, /*own_group=*/true);
    } catch (const core::Error& e) {
      fail(e.what(), "");
    }
    ::close(p.stdin_fd);
    p.stdin_fd = -1;
    std::string pending, tail, line;
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.timeout_seconds));
    bool finished = false;
    int status = 0;
    try {
      finished = serve(p, pending, tail, false, line, deadline, &status);
    } catch (...) {
      core::kill_and_reap(p);
      core::close_pipes(p);
      throw;
    }
    if (!finished) {
      core::kill_and_reap(p);
      core::close_pipes(p);
      fail("no result within the timeout of " + timeout_text() + " s (the timeout); it was killed",
           tail);
    }
    // Both streams ended; the program may still be running (it closed them itself).
    while (p.pid >= 0) {
      if (::waitpid(p.pid, &status, WNOHANG) == p.pid) {
        p.pid = -1;
        break;
      }
      if (Clock::now() >= deadline) {
        core::kill_and_reap(p);
        core::close_pipes(p);
        fail(
            "no result within the timeout of " + timeout_text() + " s (the timeout); it was killed",
            tail);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    core::kill_group(p);  // whatever it left running
    core::close_pipes(p);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fail("the program " + core::describe_wait_status(status), tail);
    }
    return tail;
  }

  // Returns the tail of what the program wrote to stderr during this training.
  std::string run_persistent(Child& c, const std::string& dir, std::size_t k, std::uint64_t seed) {
    nlohmann::ordered_json request;
    request["train"] = dir + "/train.tsv";
    request["users"] = dir + "/users.txt";
    request["k"] = k;
    request["seed"] = seed;
    request["output"] = dir + "/top.out";
    const std::string text = request.dump() + "\n";
    std::string tail, line;
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.timeout_seconds));
    // The request is small (well under a pipe's buffer): one blocking write.
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = ::write(c.process.stdin_fd, text.data() + written, text.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int status = core::kill_and_reap(c.process);
        fail("the program " + core::describe_wait_status(status) + " (it took no request)", tail);
      }
      written += static_cast<std::size_t>(n);
    }
    if (!serve(c.process, c.pending, tail, true, line, deadline)) {
      core::kill_and_reap(c.process);
      fail("no answer within the timeout of " + timeout_text() + " s (the timeout); it was killed",
           tail);
    }
    if (line.empty() && c.pending.empty()) {
      // EOF: the child died. Collect what it said last.
      std::string rest;
      serve(c.process, c.pending, tail, false, rest, Clock::now() + std::chrono::milliseconds(200));
      const int status = core::kill_and_reap(c.process);
      fail("the program " + core::describe_wait_status(status) + " before answering", tail);
    }
    const auto j = core::json_nests_deeper(line) ? nlohmann::json()
                                                 : nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("error")) {
      const auto& e = j["error"];
      c.reusable = true;
      fail("the program reported an error: " +
               shorten(e.is_string() ? e.get<std::string>() : e.dump()),
           tail);
    }
    if (!j.is_object() || !j.contains("done") || j["done"] != true) {
      fail("expected the answer {\"done\": true} or {\"error\": \"...\"}, got '" + shorten(line) +
               "'",
           tail);
    }
    return tail;
  }
};

CommandRecommender::CommandRecommender(const std::string& spec, CommandRecommenderOptions options)
    : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  m.spec = spec;
  m.persistent = spec.starts_with(kPersistent);
  if (!is_command_spec(spec)) {
    throw core::UsageError("'" + spec + "' is not cmd:PROGRAM [ARGS...] or cmd+persistent:...");
  }
  m.words = core::split_command_words(spec.substr((m.persistent ? kPersistent : kOneShot).size()));
  if (m.words.empty() || m.words[0].empty()) {
    throw core::UsageError("algorithm '" + spec + "' names no program (expected " +
                           std::string(m.persistent ? kPersistent : kOneShot) +
                           "PROGRAM [ARGS...])");
  }
  const std::string program = core::resolve_program(m.words[0]);
  if (program.empty() || ::access(program.c_str(), X_OK) != 0) {
    throw core::UsageError("algorithm '" + spec + "': cannot run '" + m.words[0] + "': " +
                           (program.empty() ? "not found in PATH" : "not an executable file"));
  }
  if (!(options.timeout_seconds > 0)) throw core::UsageError("the timeout must be > 0 seconds");
  m.options = std::move(options);
  core::ignore_sigpipe();
  identity_ = spec;
  for (std::size_t i = 0; i < m.words.size(); ++i) {
    const std::string path = i == 0 ? program : m.words[i];
    std::error_code ec;
    if (!path.empty() && fs::is_regular_file(path, ec)) {
      identity_.append(" ")
          .append(std::to_string(i))
          .append(":sha256:")
          .append(core::file_sha256_hex(path));
    }
  }
}

CommandRecommender::~CommandRecommender() {
  impl_->idle.clear();
  if (impl_->private_dir) {  // a shared work directory is its owner's to clean
    std::error_code ec;
    fs::remove_all(impl_->work_dir, ec);
    core::unregister_temp_file(impl_->private_dir_slot);
  }
}

TopKLists CommandRecommender::recommend_all(const Ratings& train, std::size_t k,
                                            std::uint64_t seed) {
  auto& m = *impl_;
  {
    std::lock_guard lock(m.mutex);
    if (m.work_dir.empty()) {  // first training
      if (m.options.work_dir.empty()) {
        m.work_dir = make_private_dir();
        m.private_dir = true;
        m.private_dir_slot = core::register_temp_file(m.work_dir);
      } else {
        m.work_dir = m.options.work_dir;
      }
    }
  }
  // Numbered across every adapter of the process: two programs of one campaign share its work
  // directory.
  static std::atomic<std::uint64_t> n_trainings{0};
  const TrainingDir dir(m.work_dir, n_trainings++);
  write_training_files(train, dir.path + "/train.tsv", dir.path + "/users.txt");
  std::string tail;
  if (m.persistent) {
    std::unique_ptr<Child> child;
    {
      std::lock_guard lock(m.mutex);
      if (!m.idle.empty()) {
        child = std::move(m.idle.back());
        m.idle.pop_back();
      }
    }
    if (!child) {
      child = std::make_unique<Child>();
      try {
        child->process = core::spawn_child(m.words, /*own_group=*/true);
      } catch (const core::Error& e) {
        m.fail(e.what(), "");
      }
    }
    try {
      tail = m.run_persistent(*child, dir.path, k, seed);
    } catch (...) {
      if (child->reusable) {
        child->reusable = false;
        std::lock_guard lock(m.mutex);
        m.idle.push_back(std::move(child));
      }
      throw;  // otherwise the child ends with its unique_ptr
    }
    std::lock_guard lock(m.mutex);
    m.idle.push_back(std::move(child));
  } else {
    tail = m.run_once(dir.path, k, seed);
  }
  try {
    return read_output(dir.path + "/top.out", train, k, m.options.max_line_bytes);
  } catch (const std::string& reason) {
    m.fail(reason, tail);
  }
}

namespace {
std::mutex registry_mutex;
CommandRecommenderOptions registry_options;
std::map<std::string, std::unique_ptr<CommandRecommender>>& registry() {
  static std::map<std::string, std::unique_ptr<CommandRecommender>> adapters;
  return adapters;
}
}  // namespace

void set_command_recommender_options(const CommandRecommenderOptions& options) {
  std::lock_guard lock(registry_mutex);
  registry_options = options;
}

CommandRecommenderOptions command_recommender_options() {
  std::lock_guard lock(registry_mutex);
  return registry_options;
}

CommandRecommender& command_recommender(const std::string& spec) {
  std::lock_guard lock(registry_mutex);
  // Options changed since (another campaign's work directory) make another adapter.
  auto& adapter = registry()[spec + "\n" + registry_options.work_dir + "\n" +
                             std::to_string(registry_options.timeout_seconds)];
  if (!adapter) adapter = std::make_unique<CommandRecommender>(spec, registry_options);
  return *adapter;
}

}  // namespace assay::recsys
