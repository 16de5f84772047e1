#include "fairness/guarded_http_server.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <system_error>
#include <thread>
#include <vector>

#include "core/error.h"

namespace assay::fairness {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kStopPoll{100};        // how often a waiting connection looks for stop()
constexpr milliseconds kRefusedLinger{1000};  // how long a refused connection is drained
constexpr std::size_t kMaxLingering = 4096;   // refused connections drained at once; more: closed
constexpr std::size_t kRawBodySlack = 65536;  // chunk framing allowed over 2 · max_body_bytes

std::string error_json(const std::string& message) {
  return nlohmann::json{{"error", message}}.dump();
}

// A whole error answer written without httplib: the status line's `status` ("503 Service
// Unavailable"), `headers` (each ending in CRLF), Connection: close and the JSON error body.
std::string raw_error_answer(const std::string& status, const std::string& headers,
                             const std::string& message) {
  const std::string body = error_json(message);
  std::string answer = "HTTP/1.1 " + status;
  answer += "\r\nContent-Type: application/json\r\nContent-Length: ";
  answer += std::to_string(body.size()) + "\r\n" + headers;
  answer += "Connection: close\r\n\r\n" + body;
  return answer;
}

std::string headers_too_large(std::size_t max_header_bytes) {
  return "the request line and headers are larger than " + std::to_string(max_header_bytes) +
         " bytes";
}

int poll_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

// Waits until `fd` has `events` or the deadline passes; false at the deadline. EINTR retried.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, poll_ms(deadline));
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return true;  // let the read or write report the error
    if (r == 0 && Clock::now() >= deadline) return false;
  }
}

void close_socket(int fd) {
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

// Reads and discards what the client still sends, until it closes, `deadline`, or `quiet`
// without data: so that it reads our answer rather than a reset caused by unread data.
void drain(int fd, Clock::time_point deadline, milliseconds quiet) {
  ::shutdown(fd, SHUT_WR);
  std::vector<char> sink(65536);
  for (;;) {
    const auto until = std::min(deadline, Clock::now() + quiet);
    if (!wait_for(fd, POLLIN, until)) return;
    const ssize_t n = ::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT);
    if (n == 0) return;
    if (n < 0 && errno != EAGAIN && errno != EINTR) return;
  }
}

std::string address_text(const std::string& host, int port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

// Why a request on a connection was cut short, decided by the stream or the handlers.
// kStopping: the server stopped while the request line or headers were still coming.
enum class Cut { kNone, kTooLarge, kHeadersTooLarge, kReadTimeout, kWriteTimeout, kStopping };

// The state of the connection this thread serves (the handlers run on it).
struct Connection {
  Cut cut = Cut::kNone;
  bool must_close = false;  // answer, then close the connection
  bool drain = false;       // read the rest of the request and discard it before closing
  Clock::time_point deadline;
};
thread_local Connection* t_connection = nullptr;

// A refused connection being drained before it is closed.
struct Lingering {
  int fd;
  Clock::time_point until;
};
// Set on the refusing thread only: process_and_close_socket answers 503 there.
thread_local std::vector<Lingering>* t_refusing = nullptr;

// The socket of one connection with the guard's deadlines and byte budgets. Reads are
// buffered (httplib reads request lines a byte at a time).
class GuardedStream final : public httplib::Stream {
 public:
  // `listening`: the server's socket, INVALID_SOCKET once it stops.
  GuardedStream(int fd, Connection& c, const GuardedHttpServerOptions& o,
                const std::atomic<socket_t>& listening)
      : fd_(fd), connection_(c), options_(o), listening_(listening) {}

  // A request begins (its first byte is here or buffered): its deadline and budgets.
  void begin_request(Clock::time_point deadline) {
    connection_.deadline = deadline;
    in_body_ = false;
    header_bytes_ = 0;
  }
  // The headers are read; what follows is the body (at most `budget` raw bytes).
  void begin_body(std::size_t budget) {
    in_body_ = true;
    body_bytes_ = 0;
    body_budget_ = budget;
  }
  bool buffered() const { return pos_ < len_; }
  bool wrote() const { return wrote_; }

  bool is_readable() const override {
    return buffered() || wait_for(fd_, POLLIN, connection_.deadline);
  }
  bool is_writable() const override {
    return wait_for(fd_, POLLOUT, Clock::now() + options_.read_timeout);
  }

  ssize_t read(char* ptr, std::size_t size) override {
    if (!buffered() && !fill()) return -1;
    const std::size_t n = std::min(size, len_ - pos_);
    if (in_body_) {
      body_bytes_ += n;
      if (body_bytes_ > body_budget_) return cut(Cut::kTooLarge);
    } else {
      header_bytes_ += n;
      if (header_bytes_ > options_.max_header_bytes) return cut(Cut::kHeadersTooLarge);
    }
    std::memcpy(ptr, buffer_ + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, std::size_t size) override {
    wrote_ = true;
    const auto deadline = Clock::now() + options_.read_timeout;
    std::size_t done = 0;
    while (done < size) {
      if (!wait_for(fd_, POLLOUT, deadline)) return cut(Cut::kWriteTimeout);
      const ssize_t n = ::send(fd_, ptr + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) continue;
        return -1;
      }
      done += static_cast<std::size_t>(n);
    }
    return static_cast<ssize_t>(size);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0) name(a, len, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0) name(a, len, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  static void name(const sockaddr_storage& a, socklen_t len, std::string& ip, int& port) {
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    if (::getnameinfo(reinterpret_cast<const sockaddr*>(&a), len, host, sizeof host, serv,
                      sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host;
      port = std::atoi(serv);
    }
  }
  ssize_t cut(Cut why) {
    if (connection_.cut == Cut::kNone) connection_.cut = why;
    connection_.must_close = true;
    return -1;
  }
  // Refills the buffer before the request's deadline; false at the deadline, EOF or an error.
  // A request whose headers are still coming when the server stops is given up at once (a
  // body being read is a request in flight: it gets its deadline).
  bool fill() {
    for (;;) {
      const ssize_t n = ::recv(fd_, buffer_, sizeof buffer_, MSG_DONTWAIT);
      if (n > 0) {
        pos_ = 0;
        len_ = static_cast<std::size_t>(n);
        return true;
      }
      if (n == 0) return false;
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
      const auto now = Clock::now();
      if (now >= connection_.deadline) {
        cut(Cut::kReadTimeout);
        return false;
      }
      if (!in_body_ && listening_ == INVALID_SOCKET) {
        cut(Cut::kStopping);
        return false;
      }
      wait_for(fd_, POLLIN, std::min(connection_.deadline, now + kStopPoll));
    }
  }

  int fd_;
  Connection& connection_;
  const GuardedHttpServerOptions& options_;
  const std::atomic<socket_t>& listening_;
  char buffer_[16384];
  std::size_t pos_ = 0, len_ = 0;
  bool in_body_ = false, wrote_ = false;
  std::size_t header_bytes_ = 0, body_bytes_ = 0, body_budget_ = 0;
};

}  // namespace

struct GuardedHttpServer::State {
  GuardedHttpServerOptions options;
  Handler error_handler;
  std::string refusal;                // the whole 503 answer
  std::string line_refusal;           // the whole 431 answer to a request line over the limit
  std::atomic<bool> listened{false};  // listen_after_bind() ran (it closes the socket itself)
  std::atomic<std::uint64_t> open{0}, accepted{0}, refused{0}, too_large{0}, headers_too_large{0},
      idle_timeouts{0}, read_timeouts{0}, write_timeouts{0};
};

namespace {

// The task queue of the server's accept loop: each accepted connection gets a thread of its
// own while fewer than max_connections are open (threads are made whenever the waiting
// connections outnumber the idle threads, then reused);
// beyond that the connection goes to the refusing thread, which answers 503 and drains it.
class ConnectionQueue final : public httplib::TaskQueue {
 public:
  explicit ConnectionQueue(GuardedHttpServer::State& s) : state_(s) {
    refuser_ = std::thread([this] { refuse_loop(); });
  }
  ~ConnectionQueue() override { shutdown(); }

  void enqueue(std::function<void()> fn) override {
    // Called by the accept loop only, so the cap check and the increment do not race.
    if (state_.open.load() >= state_.options.max_connections) return refuse(std::move(fn));
    {
      std::lock_guard lock(mutex_);
      // A thread whenever the jobs waiting (this one included) outnumber the idle threads: a
      // burst never queues behind threads that are busy with slow connections.
      if (jobs_.size() >= idle_ && workers_.size() < state_.options.max_connections) {
        try {
          workers_.emplace_back([this] { work_loop(); });
        } catch (const std::system_error&) {
          // No thread to be had (a process or memory limit): refuse rather than queue.
          if (workers_.empty()) return refuse(std::move(fn));
        }
      }
      ++state_.open;
      ++state_.accepted;
      jobs_.push_back(std::move(fn));
    }
    cv_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      stopping_ = true;
    }
    {
      std::lock_guard lock(refuse_mutex_);
      refuse_stopping_ = true;
    }
    cv_.notify_all();
    refuse_cv_.notify_all();
    for (auto& t : workers_) t.join();
    refuser_.join();
  }

 private:
  void refuse(std::function<void()> fn) {
    {
      std::lock_guard lock(refuse_mutex_);
      refuse_jobs_.push_back(std::move(fn));
    }
    refuse_cv_.notify_one();
  }

  void work_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++idle_;
      cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) return;
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      --state_.open;
      lock.lock();
    }
  }

  void refuse_loop() {
    std::vector<Lingering> lingering;
    t_refusing = &lingering;
    for (;;) {
      std::deque<std::function<void()>> jobs;
      bool stopping = false;
      {
        std::unique_lock lock(refuse_mutex_);
        if (lingering.empty())
          refuse_cv_.wait(lock, [this] { return refuse_stopping_ || !refuse_jobs_.empty(); });
        jobs.swap(refuse_jobs_);
        stopping = refuse_stopping_;
      }
      for (auto& job : jobs) job();  // process_and_close_socket: answers, adds to `lingering`
      if (stopping) break;
      drain_some(lingering, jobs.empty() ? 10 : 0);
    }
    for (const auto& l : lingering) close_socket(l.fd);
    t_refusing = nullptr;
  }

  // Reads what the refused clients sent; closes those that closed or whose time is up.
  static void drain_some(std::vector<Lingering>& lingering, int timeout_ms) {
    if (lingering.empty()) return;
    std::vector<pollfd> fds;
    fds.reserve(lingering.size());
    for (const auto& l : lingering) fds.push_back({l.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), timeout_ms);
    const auto now = Clock::now();
    char sink[4096];
    std::size_t kept = 0;
    for (std::size_t i = 0; i < lingering.size(); ++i) {
      bool done = now >= lingering[i].until;
      if (!done && fds[i].revents != 0) {
        const ssize_t n = ::recv(fds[i].fd, sink, sizeof sink, MSG_DONTWAIT);
        done = n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
      }
      if (done) {
        ::close(lingering[i].fd);
      } else {
        lingering[kept++] = lingering[i];
      }
    }
    lingering.resize(kept);
  }

  GuardedHttpServer::State& state_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> workers_;
  std::size_t idle_ = 0;
  bool stopping_ = false;

  std::mutex refuse_mutex_;
  std::condition_variable refuse_cv_;
  std::deque<std::function<void()>> refuse_jobs_;
  bool refuse_stopping_ = false;
  std::thread refuser_;
};

void check_range(const char* what, long long value, long long min, long long max) {
  if (value < min || value > max) {
    throw core::UsageError(std::string(what) + " " + std::to_string(value) + " is not in " +
                           std::to_string(min) + ".." + std::to_string(max));
  }
}

// The request's body is over the limit: answer 413 and close once the rest is discarded.
// `say_close`: add "Connection: close" (httplib adds it when the request has it).
void refuse_body(Connection& c, httplib::Response& res, std::size_t max_body, bool say_close) {
  c.cut = Cut::kTooLarge;
  c.must_close = true;
  c.drain = true;
  res.status = 413;
  if (say_close) res.set_header("Connection", "close");
  res.set_content(error_json("the request body is larger than the limit of " +
                             std::to_string(max_body) + " bytes"),
                  "application/json");
}

}  // namespace

GuardedHttpServer::GuardedHttpServer(GuardedHttpServerOptions options)
    : state_(std::make_unique<State>()) {
  auto& o = state_->options;
  o = options;
  check_range("the connection limit", static_cast<long long>(o.max_connections), 1, 4096);
  check_range("the read timeout (ms)", o.read_timeout.count(), 10, 600'000);
  check_range("the idle timeout (ms)", o.idle_timeout.count(), 10, 600'000);
  check_range("the listen backlog", o.backlog, 1, 65535);
  if (o.max_body_bytes == 0) throw core::UsageError("the body limit must be at least 1 byte");
  if (o.max_header_bytes < 1024)
    throw core::UsageError("the header limit must be at least 1024 bytes");
  if (o.max_requests_per_connection == 0)
    throw core::UsageError("the requests per connection must be at least 1");
  state_->refusal = raw_error_answer("503 Service Unavailable", "Retry-After: 1\r\n",
                                     "too many connections: " + std::to_string(o.max_connections) +
                                         " are open (the server's limit); retry later");
  state_->line_refusal = raw_error_answer("431 Request Header Fields Too Large", "",
                                          headers_too_large(o.max_header_bytes));

  State* s = state_.get();
  new_task_queue = [s] {
    s->listened = true;
    return new ConnectionQueue(*s);
  };
  // SO_REUSEADDR (a restart does not wait for TIME_WAIT) but not httplib's SO_REUSEPORT.
  set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  httplib::Server::set_payload_max_length(o.max_body_bytes);
  const auto seconds = [](milliseconds ms) {
    return static_cast<time_t>(std::max<long long>(1, (ms.count() + 999) / 1000));
  };
  set_read_timeout(seconds(o.read_timeout));
  set_write_timeout(seconds(o.read_timeout));
  set_keep_alive_timeout(seconds(o.idle_timeout));  // what the Keep-Alive header announces
  set_keep_alive_max_count(o.max_requests_per_connection);

  // A Content-Length over the limit (seen in `setup` of process_and_close_socket, which also
  // made the request say "Connection: close").
  set_pre_routing_handler([s](const httplib::Request&, httplib::Response& res) {
    Connection* c = t_connection;
    if (c && c->cut == Cut::kTooLarge) {
      refuse_body(*c, res, s->options.max_body_bytes, false);
      return HandlerResponse::Handled;
    }
    return HandlerResponse::Unhandled;
  });
  set_expect_100_continue_handler([s](const httplib::Request&, httplib::Response& res) {
    Connection* c = t_connection;
    if (c && c->cut == Cut::kTooLarge) {
      refuse_body(*c, res, s->options.max_body_bytes, false);
      return 413;
    }
    return 100;
  });
  httplib::Server::set_error_handler(HandlerWithResponse(
      [s](const httplib::Request& req, httplib::Response& res) -> HandlerResponse {
        Connection* c = t_connection;
        if (c && res.body.empty()) {
          switch (c->cut) {
            case Cut::kTooLarge:
              refuse_body(*c, res, s->options.max_body_bytes,
                          req.get_header_value("Connection") != "close");
              return HandlerResponse::Handled;
            case Cut::kHeadersTooLarge:
              res.status = 431;
              if (req.get_header_value("Connection") != "close")
                res.set_header("Connection", "close");
              res.set_content(error_json(headers_too_large(s->options.max_header_bytes)),
                              "application/json");
              return HandlerResponse::Handled;
            case Cut::kReadTimeout:
              res.status = 408;
              if (req.get_header_value("Connection") != "close")
                res.set_header("Connection", "close");
              res.set_content(error_json("the request was not received within " +
                                         std::to_string(s->options.read_timeout.count()) +
                                         " ms (the server's read timeout)"),
                              "application/json");
              return HandlerResponse::Handled;
            case Cut::kStopping:
              res.status = 503;
              res.set_header("Retry-After", "1");
              if (req.get_header_value("Connection") != "close")
                res.set_header("Connection", "close");
              res.set_content(error_json("shutting down"), "application/json");
              return HandlerResponse::Handled;
            default:
              break;
          }
        }
        if (s->error_handler) {
          s->error_handler(req, res);
          return HandlerResponse::Handled;
        }
        return HandlerResponse::Unhandled;
      }));
}

GuardedHttpServer::~GuardedHttpServer() {
  // Bound but never served (listen_after_bind() closes the socket when it ends).
  if (state_->listened) return;
  const socket_t sock = svr_sock_.exchange(INVALID_SOCKET);
  if (sock != INVALID_SOCKET) ::close(sock);
}

int GuardedHttpServer::bind(const std::string& host, int port) {
  if (port < 0 || port > 65535)
    throw core::UsageError("port " + std::to_string(port) + " is not in 0..65535");
  errno = 0;
  int bound = port;
  if (port == 0) {
    bound = bind_to_any_port(host);
  } else if (!bind_to_port(host, port)) {
    bound = -1;
  }
  const int err = errno;
  if (bound <= 0) {
    std::string why = "not an address of this machine, or not allowed";
    if (err == EADDRINUSE) {
      why = "the address is already in use (another server listens there)";
    } else if (err != 0) {
      why = std::strerror(err);
    }
    throw core::Error("cannot listen on " + address_text(host, port) + ": " + why);
  }
  // httplib listens with a backlog of 5; listen() again sets the real one.
  if (::listen(svr_sock_, state_->options.backlog) != 0) {
    throw core::Error("cannot listen on " + address_text(host, bound) + " with a backlog of " +
                      std::to_string(state_->options.backlog) + ": " + std::strerror(errno));
  }
  return bound;
}

GuardedHttpServer& GuardedHttpServer::Post(const std::string& pattern, Handler handler) {
  State* s = state_.get();
  httplib::Server::Post(pattern, [s, handler = std::move(handler)](
                                     const httplib::Request& req, httplib::Response& res,
                                     const httplib::ContentReader& reader) {
    Connection* c = t_connection;
    if (req.is_multipart_form_data()) {
      if (c) c->must_close = c->drain = true;
      res.status = 415;
      res.set_header("Connection", "close");
      res.set_content(error_json("multipart bodies are not accepted"), "application/json");
      return;
    }
    const std::size_t max = s->options.max_body_bytes;
    std::string body;
    bool over = false;
    const bool ok = reader([&](const char* data, std::size_t n) {
      if (body.size() + n > max) return !(over = true);
      body.append(data, n);
      return true;
    });
    if (over || (c && c->cut == Cut::kTooLarge)) {
      Connection none;
      refuse_body(c ? *c : none, res, max, req.get_header_value("Connection") != "close");
      return;
    }
    if (!ok) {  // cut (the error handler says why) or the client went away
      if (c) c->must_close = true;
      res.status = 400;
      res.set_header("Connection", "close");
      return;
    }
    httplib::Request whole = req;
    whole.body = std::move(body);
    handler(whole, res);
  });
  return *this;
}

GuardedHttpServer& GuardedHttpServer::set_error_handler(Handler handler) {
  state_->error_handler = std::move(handler);
  return *this;
}

ConnectionCounts GuardedHttpServer::counts() const {
  const State& s = *state_;
  ConnectionCounts c;
  c.open = s.open;
  c.accepted = s.accepted;
  c.refused = s.refused;
  c.too_large = s.too_large;
  c.headers_too_large = s.headers_too_large;
  c.idle_timeouts = s.idle_timeouts;
  c.read_timeouts = s.read_timeouts;
  c.write_timeouts = s.write_timeouts;
  return c;
}

const GuardedHttpServerOptions& GuardedHttpServer::options() const {
  return state_->options;
}

bool GuardedHttpServer::process_and_close_socket(socket_t sock) {
  State& s = *state_;
  const auto& o = s.options;
  if (t_refusing) {
    ++s.refused;
    const ssize_t n = ::send(sock, s.refusal.data(), s.refusal.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n == static_cast<ssize_t>(s.refusal.size()) && t_refusing->size() < kMaxLingering) {
      ::shutdown(sock, SHUT_WR);
      t_refusing->push_back({sock, Clock::now() + kRefusedLinger});
    } else {
      close_socket(sock);
    }
    return true;
  }
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  Connection c;
  GuardedStream stream(sock, c, o, svr_sock_);
  t_connection = &c;
  const std::function<void(httplib::Request&)> setup = [&](httplib::Request& req) {
    const std::size_t max = o.max_body_bytes;
    stream.begin_body(2 * max + kRawBodySlack);
    if (req.has_header("Content-Length")) {
      const std::string v = req.get_header_value("Content-Length");
      std::uint64_t length = 0;
      const auto r = std::from_chars(v.data(), v.data() + v.size(), length);
      if (r.ec == std::errc::result_out_of_range ||
          (r.ec == std::errc() && r.ptr == v.data() + v.size() && length > max)) {
        c.cut = Cut::kTooLarge;
        c.must_close = c.drain = true;
      }
    } else if (!req.has_header("Transfer-Encoding") &&
               (req.method == "POST" || req.method == "PUT" || req.method == "PATCH")) {
      // No length and no transfer coding: no body (httplib would read until the client closes).
      req.set_header("Content-Length", "0");
    }
    if (c.must_close) {
      req.headers.erase("Connection");
      req.set_header("Connection", "close");  // the answer says so
    }
  };
  for (std::size_t n = 0; n < o.max_requests_per_connection; ++n) {
    if (!stream.buffered()) {
      // Idle: wait for the first byte of a request, looking for stop() now and then (once
      // stopped, only what has already arrived is read).
      const auto idle_end = Clock::now() + o.idle_timeout;
      bool ready = false;
      for (;;) {
        const auto now = Clock::now();
        const bool stopped = svr_sock_ == INVALID_SOCKET;
        const auto until = stopped || now >= idle_end ? now : std::min(idle_end, now + kStopPoll);
        if ((ready = wait_for(sock, POLLIN, until)) || stopped || Clock::now() >= idle_end) break;
      }
      if (!ready) {
        if (svr_sock_ != INVALID_SOCKET) ++s.idle_timeouts;
        break;
      }
    }
    stream.begin_request(Clock::now() + o.read_timeout);
    c.cut = Cut::kNone;
    bool closed = false;
    const bool last = n + 1 == o.max_requests_per_connection || svr_sock_ == INVALID_SOCKET;
    const bool ok = process_request(stream, last, closed, setup);
    if (!ok && c.cut == Cut::kHeadersTooLarge && !stream.wrote()) {
      // The request line alone is over the limit: httplib gives up without an answer.
      stream.write(s.line_refusal.data(), s.line_refusal.size());
      c.drain = true;
    }
    switch (c.cut) {
      case Cut::kTooLarge:
        ++s.too_large;
        break;
      case Cut::kHeadersTooLarge:
        ++s.headers_too_large;
        break;
      case Cut::kReadTimeout:
        ++s.read_timeouts;
        break;
      case Cut::kWriteTimeout:
        ++s.write_timeouts;
        break;
      case Cut::kNone:
      case Cut::kStopping:
        break;
    }
    if (!ok || closed || last || c.must_close) break;
  }
  if (c.drain && c.cut != Cut::kWriteTimeout) drain(sock, c.deadline, o.idle_timeout);
  t_connection = nullptr;
  close_socket(sock);
  return true;
}

}  // namespace assay::fairness
