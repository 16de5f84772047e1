#include "models/command_model.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "core/child_process.h"
#include "core/error.h"
#include "core/excerpt.h"
#include "core/interrupt.h"
#include "core/json_depth.h"
#include "core/sha256.h"
#include "models/label_map.h"
#include "models/model_error.h"

namespace assay::models {
namespace {

using Clock = std::chrono::steady_clock;
// How long an interrupted predict() waits for the answers a child still gives after its input
// is closed.
constexpr auto kCollectAfterInterrupt = std::chrono::seconds(3);

std::string shorten(std::string_view line) {
  constexpr std::size_t kMax = 200;
  if (line.size() <= kMax) return std::string(line);
  return std::string(line.substr(0, kMax)) + "...";
}

// The integer after "id": in a line that is not valid JSON, to name the text it concerns.
std::optional<std::int64_t> find_id(std::string_view line) {
  const std::size_t key = line.find("\"id\"");
  if (key == std::string_view::npos) return std::nullopt;
  std::size_t i = key + 4;
  while (i < line.size() && (line[i] == ' ' || line[i] == ':')) ++i;
  std::int64_t value = 0;
  std::size_t digits = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9' && digits < 18) {
    value = value * 10 + (line[i++] - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  return value;
}

// The common answer {"id": N, "scores": [x, ...]} with finite numbers, parsed without building a
// JSON tree. Anything else (other keys, NaN, malformed text) returns false and takes the
// general path, which also produces the error messages.
bool parse_plain_answer(std::string_view line, std::int64_t& id, std::vector<double>& scores) {
  std::size_t i = 0;
  auto skip = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  auto expect = [&](std::string_view token) {
    skip();
    if (line.compare(i, token.size(), token) != 0) return false;
    i += token.size();
    return true;
  };
  if (!expect("{") || !expect("\"id\"") || !expect(":")) return false;
  skip();
  auto r = std::from_chars(line.data() + i, line.data() + line.size(), id);
  if (r.ec != std::errc()) return false;
  i = static_cast<std::size_t>(r.ptr - line.data());
  if (!expect(",") || !expect("\"scores\"") || !expect(":") || !expect("[")) return false;
  scores.clear();
  for (;;) {
    skip();
    double v = 0;
    const char* begin = line.data() + i;
    if (i < line.size() && (line[i] == 'n' || line[i] == 'i' || line[i] == 'N' || line[i] == 'I')) {
      return false;
    }
    const auto rv = std::from_chars(begin, line.data() + line.size(), v);
    if (rv.ec != std::errc() || !std::isfinite(v)) return false;
    scores.push_back(v);
    i = static_cast<std::size_t>(rv.ptr - line.data());
    skip();
    if (i < line.size() && line[i] == ',') {
      ++i;
      continue;
    }
    break;
  }
  if (!expect("]") || !expect("}")) return false;
  skip();
  return i == line.size();
}

// {"id":N,"text":"..."}: the text escaped by hand when it is plain printable ASCII, otherwise by
// nlohmann::json (which also replaces invalid UTF-8).
void append_request(std::string& out, std::int64_t id, const std::string& text) {
  out += "{\"id\":";
  out += std::to_string(id);
  out += ",\"text\":";
  bool plain = true;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain) {
    out += '"';
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  } else {
    out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  out += "}\n";
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

}  // namespace

CommandModel::CommandModel(const std::string& command, const ModelOptions& options)
    : words_(split_command_words(command)), options_(options) {
  if (words_.empty() || words_[0].empty()) {
    throw core::UsageError("model spec 'cmd:' names no program (expected cmd:PROGRAM [ARGS...])");
  }
  core::ignore_sigpipe();
  // Identity: the words, and the content of every word that is a file (program, script, model).
  identity_ = "cmd:" + nlohmann::json(words_).dump();
  const std::string program = core::resolve_program(words_[0]);
  if (program.empty() || ::access(program.c_str(), X_OK) != 0) {
    throw ModelError(name() + ": cannot start '" + words_[0] +
                     "': " + (program.empty() ? "not found in PATH" : "not an executable file"));
  }
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::string path = i == 0 ? program : words_[i];
    std::error_code ec;
    if (!path.empty() && std::filesystem::is_regular_file(path, ec)) {
      identity_.append(" ")
          .append(std::to_string(i))
          .append(":sha256:")
          .append(core::file_sha256_hex(path));
    }
  }
  for (const std::string& file : options_.command.identity_files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
      throw core::UsageError("--model-file " + file +
                             ": not a regular file (name a file whose "
                             "content the model's answers depend on)");
    }
    identity_.append(" file:").append(file).append(":sha256:").append(core::file_sha256_hex(file));
  }
  prefix_ = options_.command.stderr_prefix;
  if (prefix_.empty()) {
    std::string shown = std::filesystem::path(words_[0]).filename().string();
    for (std::size_t i = 1; i < words_.size(); ++i) {  // the script, for interpreters
      if (words_[i].empty() || words_[i][0] == '-') continue;
      shown = std::filesystem::path(words_[i]).filename().string();
      break;
    }
    // Not "[" + shown (GCC 12 -Wrestrict); escaped, as a file name may hold terminal controls.
    prefix_.append("[").append(core::escape_control(shown)).append("] ");
  }
  labels_ = options_.labels;
  labels_from_options_ = !labels_.empty();
  // Labels given, not sent: they name the scores, so answers cached under other names are
  // not these.
  if (labels_from_options_) identity_.append(" labels:").append(nlohmann::json(labels_).dump());
}

std::vector<std::string> CommandModel::files_outside_identity() const {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::vector<fs::path> named;  // files part of the identity
  for (std::size_t i = 1; i < words_.size(); ++i) {
    std::error_code ec;
    if (fs::is_regular_file(words_[i], ec)) named.push_back(fs::absolute(words_[i], ec));
  }
  for (const auto& f : options_.command.identity_files) {
    std::error_code ec;
    named.push_back(fs::absolute(f, ec));
  }
  for (std::size_t i = 1; i < words_.size(); ++i) {
    std::error_code ec;
    const fs::path script = fs::absolute(words_[i], ec);
    if (!fs::is_regular_file(script, ec) || !script.has_extension()) continue;
    for (fs::directory_iterator it(script.parent_path(), ec), end; !ec && it != end;
         it.increment(ec)) {
      const fs::path p = it->path();
      if (p.extension() != script.extension() || !fs::is_regular_file(p, ec)) continue;
      if (std::find(named.begin(), named.end(), p) != named.end()) continue;
      if (std::find(out.begin(), out.end(), p.string()) == out.end()) out.push_back(p.string());
    }
  }
  return out;
}

void CommandModel::start_first_child() {
  if (started_) return;
  start();
  if (!labels_from_options_) {
    try {
      read_labels_line();
    } catch (...) {
      labels_.clear();  // the next use starts a fresh child and reads its labels again
      stop(true);
      throw;
    }
  }
  started_ = true;
}

const std::vector<std::string>& CommandModel::labels() const {
  // Logically const: the labels a child sends are read when it first starts.
  if (!labels_from_options_) const_cast<CommandModel*>(this)->start_first_child();
  return labels_;
}

CommandModel::~CommandModel() {
  stop(false);
}

std::string CommandModel::name() const {
  std::string out = "cmd:";
  for (std::size_t i = 0; i < words_.size(); ++i) out += (i ? " " : "") + words_[i];
  return out;
}

void CommandModel::start() {
  core::ChildProcess child;
  try {
    child = core::spawn_child(words_);
  } catch (const core::Error& e) {
    throw ModelError(name() + ": " + e.what());
  }
  pid_ = child.pid;
  stdin_fd_ = child.stdin_fd;
  stdout_fd_ = child.stdout_fd;
  stderr_fd_ = child.stderr_fd;
  set_nonblocking(stdin_fd_);
  set_nonblocking(stdout_fd_);
  pending_input_.clear();
  labels_seen_ = false;
  stop_stderr_ = false;
  const int fd = stderr_fd_;
  const std::string prefix = prefix_;
  const std::size_t max_line = options_.command.max_line_bytes;
  stderr_thread_ = std::thread([this, fd, prefix, max_line] {
    std::string partial;
    char buffer[4096];
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, 100);
      if (ready == 0) {
        if (stop_stderr_) break;
        continue;
      }
      if (ready < 0 && errno == EINTR) continue;
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      partial.append(buffer, static_cast<std::size_t>(n));
      std::size_t newline;
      while ((newline = partial.find('\n')) != std::string::npos) {
        // The child's own lines reach the terminal escaped (a model's ESC cannot drive it).
        const std::string line =
            prefix + core::escape_control(std::string_view(partial).substr(0, newline + 1));
        std::fwrite(line.data(), 1, line.size(), stderr);
        partial.erase(0, newline + 1);
      }
      if (partial.size() > max_line) {  // a line that never ends goes out in pieces
        const std::string piece = prefix + core::escape_control(partial) + "\n";
        std::fwrite(piece.data(), 1, piece.size(), stderr);
        partial.clear();
      }
    }
    if (!partial.empty()) {
      const std::string line = prefix + core::escape_control(partial) + "\n";
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
  });
}

void CommandModel::stop(bool kill_now) {
  if (pid_ < 0) return;
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
  int status = 0;
  bool reaped = false;
  if (!kill_now) {  // end of input: a well-behaved child exits by itself
    const auto deadline = Clock::now() + std::chrono::seconds(2);
    while (Clock::now() < deadline) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (!reaped) {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  exit_status_ = status;
  pid_ = -1;
  stop_stderr_ = true;
  if (stderr_thread_.joinable()) stderr_thread_.join();
  ::close(stdout_fd_);
  ::close(stderr_fd_);
  stdout_fd_ = stderr_fd_ = -1;
}

std::string CommandModel::describe_exit() {
  return core::describe_wait_status(exit_status_);
}

void CommandModel::read_labels_line() {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options_.timeout_seconds));
  for (;;) {
    const std::size_t newline = pending_input_.find('\n');
    if ((newline == std::string::npos ? pending_input_.size() : newline) >
        options_.command.max_line_bytes + 1) {
      stop(true);
      throw ModelError(name() + ": " + too_long_line());
    }
    if (newline != std::string::npos) {
      const std::string line = pending_input_.substr(0, newline);
      pending_input_.erase(0, newline + 1);
      nlohmann::json j = core::json_nests_deeper(line)
                             ? nlohmann::json()
                             : nlohmann::json::parse(line, nullptr, false);
      if (!j.is_object() || !j.contains("labels") || !j["labels"].is_array() ||
          j["labels"].empty()) {
        throw ModelError(name() +
                         ": expected a first line {\"labels\": [...]} naming the labels "
                         "(or give them with the model's labels option), got '" +
                         shorten(line) + "'");
      }
      for (const auto& label : j["labels"]) {
        if (!label.is_string()) {
          throw ModelError(name() + ": labels must be strings, got '" + shorten(line) + "'");
        }
        labels_.push_back(label.get<std::string>());
      }
      if (const std::string twice = repeated_label(labels_); !twice.empty()) {
        std::string what = name();
        what += ": the labels line names '" + twice + "' twice: '";
        what += shorten(line);
        throw ModelError(what + "'");
      }
      labels_seen_ = true;
      return;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      throw ModelError(
          name() + ": sent no {\"labels\": [...]} line within " +
          std::to_string(options_.timeout_seconds) +
          " s (give the labels with the model's labels option if the child does not send them)");
    }
    pollfd p{stdout_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buffer[65536];
    const ssize_t n = ::read(stdout_fd_, buffer, sizeof buffer);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) {
      stop(false);
      throw ModelError(name() + ": the child " + describe_exit() +
                       " before sending its {\"labels\": [...]} line");
    }
    pending_input_.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string CommandModel::too_long_line() const {
  return "a line longer than the limit of " + std::to_string(options_.command.max_line_bytes) +
         " bytes from the child (expected {\"id\": N, \"scores\": [...]} lines); it was "
         "killed";
}

// One predict() call: the texts are sent as the child's window of requests in flight allows,
// its answer lines are matched to them by id, and a child that dies is restarted and asked the
// texts it left unanswered.
class CommandModel::Exchange {
 public:
  Exchange(CommandModel& model, const std::vector<std::string>& texts)
      : m_(model),
        texts_(texts),
        out_(texts.size()),
        answered_(texts.size(), false),
        timeout_(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(model.options_.timeout_seconds))),
        last_progress_(Clock::now()) {
    for (std::size_t i = 0; i < texts.size(); ++i) to_send_.push_back(i);
  }

  std::vector<std::vector<double>> run();

 private:
  std::size_t first_unanswered() const {
    for (std::size_t i = 0; i < texts_.size(); ++i) {
      if (!answered_[i]) return i;
    }
    return 0;
  }
  // Kills the child (its stream can no longer be trusted) and reports.
  [[noreturn]] void fail(const std::string& what, std::size_t index) {
    m_.stop(true);
    throw ModelError(m_.name() + ": " + what, index);
  }
  void take(std::size_t index, std::vector<double> scores) {
    out_[index] = std::move(scores);
    answered_[index] = true;
    ++n_answered_;
    --in_flight_;
    last_progress_ = Clock::now();
  }
  bool take_plain(const std::string& line);
  void refuse_malformed(const std::string& line, bool too_deep);
  void take_labels_line(const std::string& line);
  void handle_line(const std::string& line);
  void process_input();
  void on_child_exit();
  void send_more();
  // One poll of the child's pipes: writes what it can, reads what came. False: the child is
  // gone while stopping (the loop ends).
  bool poll_once(bool stopping, Clock::time_point stop_deadline);

  CommandModel& m_;
  const std::vector<std::string>& texts_;
  std::vector<std::vector<double>> out_;
  std::vector<bool> answered_;
  std::size_t n_answered_ = 0;
  std::unordered_map<std::int64_t, std::size_t> index_of_;  // id -> batch index
  std::deque<std::size_t> to_send_;
  std::string out_buffer_;
  std::size_t out_pos_ = 0;
  std::size_t in_flight_ = 0;
  Clock::duration timeout_;
  Clock::time_point last_progress_;
  std::vector<double> fast_scores_;
};

// The common answer, {"id": N, "scores": [...]} in plain form, read without a JSON parser.
bool CommandModel::Exchange::take_plain(const std::string& line) {
  std::int64_t id = 0;
  if (!parse_plain_answer(line, id, fast_scores_) || fast_scores_.size() != m_.labels_.size())
    return false;
  const auto it = index_of_.find(id);
  if (it == index_of_.end()) return false;
  const std::size_t index = it->second;
  index_of_.erase(it);
  take(index, fast_scores_);
  return true;
}

void CommandModel::Exchange::refuse_malformed(const std::string& line, bool too_deep) {
  const auto id = find_id(line);
  const auto it = id ? index_of_.find(*id) : index_of_.end();
  const std::size_t index = it != index_of_.end() ? it->second : first_unanswered();
  const bool non_finite =
      line.find("NaN") != std::string::npos || line.find("Infinity") != std::string::npos;
  fail(std::string(too_deep     ? "JSON that " + core::json_too_deep_reason()
                   : non_finite ? "a non-finite score (NaN or Infinity; expected finite numbers)"
                                : "malformed JSON (expected {\"id\": N, \"scores\": [...]})") +
           " in the answer '" + shorten(line) + "'",
       index);
}

// A restarted child's labels line (or a first line beside --labels): the same labels or a
// failure.
void CommandModel::Exchange::take_labels_line(const std::string& line) {
  const auto j = nlohmann::json::parse(line);
  if (j["labels"] != nlohmann::json(m_.labels_)) {
    std::string what = m_.labels_from_options_ ? "the child's labels line '"
                                               : "the restarted child sent other labels: '";
    what += shorten(line);
    what += "'";
    if (m_.labels_from_options_) {
      what += " differs from the labels given ";
      what += nlohmann::json(m_.labels_).dump();
      what += " (its scores would be read under the wrong labels)";
    }
    fail(what, first_unanswered());
  }
  m_.labels_seen_ = true;
}

void CommandModel::Exchange::handle_line(const std::string& line) {
  if (take_plain(line)) return;
  // Nesting past the limit is refused unparsed (core/json_depth.h).
  const bool too_deep = core::json_nests_deeper(line);
  const nlohmann::json j = too_deep ? nlohmann::json(nlohmann::json::value_t::discarded)
                                    : nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded()) refuse_malformed(line, too_deep);
  if (j.is_object() && j.contains("labels") && !j.contains("id")) {
    take_labels_line(line);
    return;
  }
  if (!j.is_object() || !j.contains("id") || !j["id"].is_number_integer()) {
    fail("expected {\"id\": N, \"scores\": [...]}, got '" + shorten(line) + "'",
         first_unanswered());
  }
  const auto it = index_of_.find(j["id"].get<std::int64_t>());
  if (it == index_of_.end()) {
    fail("an answer with an id that was not asked (or answered twice): '" + shorten(line) + "'",
         first_unanswered());
  }
  const std::size_t index = it->second;
  const auto scores = j.find("scores");
  if (scores == j.end() || !scores->is_array()) {
    fail("expected \"scores\": [...] in the answer '" + shorten(line) + "'", index);
  }
  if (scores->size() != m_.labels_.size()) {
    fail("expected " + std::to_string(m_.labels_.size()) + " scores (one per label), got " +
             std::to_string(scores->size()) + " in '" + shorten(line) + "'",
         index);
  }
  std::vector<double> values;
  values.reserve(scores->size());
  for (const auto& s : *scores) {
    if (!s.is_number() || !std::isfinite(s.get<double>())) {
      fail("expected finite numbers as scores, got '" + shorten(line) + "'", index);
    }
    values.push_back(s.get<double>());
  }
  index_of_.erase(it);
  take(index, std::move(values));
}

// Takes the whole lines read so far; a line over the limit, whole or not, is refused as soon as
// its bytes are read.
void CommandModel::Exchange::process_input() {
  const std::size_t max_line = m_.options_.command.max_line_bytes;
  auto& pending = m_.pending_input_;
  std::size_t newline;
  std::size_t begin = 0;
  while ((newline = pending.find('\n', begin)) != std::string::npos) {
    if (newline - begin > max_line + 1) fail(m_.too_long_line(), first_unanswered());
    std::string line = pending.substr(begin, newline - begin);
    begin = newline + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    handle_line(line);
  }
  pending.erase(0, begin);
  if (pending.size() > max_line + 1) fail(m_.too_long_line(), first_unanswered());
}

// The child died: take what it said, then restart it and re-send what it left unanswered.
void CommandModel::Exchange::on_child_exit() {
  char buffer[65536];
  for (;;) {  // drain what it wrote before dying
    const ssize_t n = ::read(m_.stdout_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    m_.pending_input_.append(buffer, static_cast<std::size_t>(n));
    process_input();
  }
  m_.stop(false);
  if (n_answered_ == texts_.size()) return;
  const int max_restarts = m_.options_.command.max_restarts;
  if (m_.n_restarts_ >= max_restarts) {
    throw ModelError(m_.name() + ": the child " + m_.describe_exit() + " after " +
                         std::to_string(m_.n_restarts_) + " restart(s) (limit " +
                         std::to_string(max_restarts) + "); this text was not answered",
                     first_unanswered());
  }
  ++m_.n_restarts_;
  std::fprintf(stderr, "%sthe child %s; restarting it (%d of at most %d)\n", m_.prefix_.c_str(),
               m_.describe_exit().c_str(), m_.n_restarts_, max_restarts);
  m_.start();
  to_send_.clear();
  index_of_.clear();
  for (std::size_t i = 0; i < texts_.size(); ++i) {
    if (!answered_[i]) to_send_.push_back(i);
  }
  out_buffer_.clear();
  out_pos_ = 0;
  in_flight_ = 0;
  last_progress_ = Clock::now();
}

void CommandModel::Exchange::send_more() {
  while (!to_send_.empty() && in_flight_ < m_.options_.command.max_in_flight) {
    const std::size_t index = to_send_.front();
    to_send_.pop_front();
    const std::int64_t id = m_.next_id_++;
    index_of_[id] = index;
    append_request(out_buffer_, id, texts_[index]);
    ++in_flight_;
  }
}

bool CommandModel::Exchange::poll_once(bool stopping, Clock::time_point stop_deadline) {
  pollfd fds[2] = {{m_.stdout_fd_, POLLIN, 0}, {m_.stdin_fd_, POLLOUT, 0}};
  const nfds_t n_fds = m_.stdin_fd_ >= 0 && out_pos_ < out_buffer_.size() ? 2 : 1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      (stopping ? stop_deadline : last_progress_ + timeout_) - Clock::now());
  if (left.count() <= 0) {
    if (stopping) return false;
    fail("no answer within " + std::to_string(m_.options_.timeout_seconds) +
             " s (the timeout); the child was killed",
         first_unanswered());
  }
  const int ready =
      ::poll(fds, n_fds, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
  if (ready < 0) {
    if (errno == EINTR) return true;
    throw ModelError(m_.name() + ": poll failed: " + std::strerror(errno));
  }
  if (n_fds == 2 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
    const ssize_t n =
        ::write(m_.stdin_fd_, out_buffer_.data() + out_pos_, out_buffer_.size() - out_pos_);
    if (n > 0) {
      out_pos_ += static_cast<std::size_t>(n);
      if (out_pos_ == out_buffer_.size()) {
        out_buffer_.clear();
        out_pos_ = 0;
      }
    } else if (n < 0 && errno == EPIPE) {
      if (stopping) return false;
      on_child_exit();
      return true;
    }
  }
  if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
    char buffer[65536];
    const ssize_t n = ::read(m_.stdout_fd_, buffer, sizeof buffer);
    if (n > 0) {
      m_.pending_input_.append(buffer, static_cast<std::size_t>(n));
      process_input();
    } else if (n == 0) {
      if (stopping) return false;
      on_child_exit();
    }
  }
  return true;
}

std::vector<std::vector<double>> CommandModel::Exchange::run() {
  // An interrupt (only seen under a core::InterruptDeferral): send no new text, finish the line
  // being written, close the child's input and collect the answers it still gives until it
  // exits (at most kCollectAfterInterrupt), so every answer it wrote is received and kept.
  bool stopping = false;
  auto stop_deadline = Clock::now();
  while (n_answered_ < texts_.size()) {
    if (m_.cancelled_) fail("cancelled (the caller was interrupted)", first_unanswered());
    if (!stopping && core::interrupt_pending()) {
      stopping = true;
      stop_deadline = Clock::now() + kCollectAfterInterrupt;
      to_send_.clear();
    }
    if (stopping) {
      if (out_pos_ == out_buffer_.size() && m_.stdin_fd_ >= 0) {
        ::close(m_.stdin_fd_);
        m_.stdin_fd_ = -1;
      }
      if (Clock::now() >= stop_deadline) break;
    }
    send_more();
    if (!poll_once(stopping, stop_deadline)) break;
  }
  if (stopping) {
    m_.stop(true);
    throw InterruptedBatch(std::move(out_));  // unanswered texts have empty scores
  }
  return std::move(out_);
}

std::vector<std::vector<double>> CommandModel::predict(const std::vector<std::string>& texts) {
  if (texts.empty()) return {};
  cancelled_ = false;
  start_first_child();
  if (pid_ < 0) start();  // after an error killed the previous child
  return Exchange(*this, texts).run();
}

}  // namespace assay::models
