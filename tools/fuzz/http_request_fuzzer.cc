// libFuzzer target: the HTTP request path of `assay fair serve` (fairness::GuardedHttpServer:
// request line, headers, Content-Length and chunked bodies under their limits, keep-alive). One
// server (small limits, short deadlines) listens on 127.0.0.1 for the whole run; each input is
// sent raw on a fresh connection, the write side is shut, and the answer is read to the end.
// Findings: a crash or sanitizer report in the server, a handler that sees a body over
// max_body_bytes, an answer that is not HTTP/1.1 with a three-digit status, or a server that
// neither answers nor closes within 5 s (the read deadline is 200 ms). Run:
// tools/fuzz/run.sh http_request
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "fairness/guarded_http_server.h"
#include "fuzz_input.h"

namespace {

namespace fa = assay::fairness;
constexpr std::size_t kMaxBody = 1024;

struct Server {
  std::unique_ptr<fa::GuardedHttpServer> server;
  std::thread thread;
  int port = 0;
};

Server& server() {
  static Server* s = [] {
    ::signal(SIGPIPE, SIG_IGN);
    auto* out = new Server;
    fa::GuardedHttpServerOptions o;
    o.max_connections = 8;
    o.read_timeout = std::chrono::milliseconds(200);
    o.idle_timeout = std::chrono::milliseconds(100);
    o.max_body_bytes = kMaxBody;
    o.max_header_bytes = 2048;
    o.max_requests_per_connection = 16;
    out->server = std::make_unique<fa::GuardedHttpServer>(o);
    out->server->Post("/predict", [](const httplib::Request& req, httplib::Response& res) {
      if (req.body.size() > kMaxBody) std::abort();  // the guard's promise
      res.set_content("{\"bytes\": " + std::to_string(req.body.size()) + "}", "application/json");
    });
    out->server->Get("/health", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("{\"status\": \"ok\"}", "application/json");
    });
    out->port = out->server->bind("127.0.0.1", 0);
    out->thread = std::thread([out] { out->server->listen_after_bind(); });
    return out;
  }();
  return *s;
}

// Waits for `events` on `fd` until `deadline`; false on time-out.
bool wait_for(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return true;  // let the read or write report it
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Server& s = server();
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) std::abort();
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(s.port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 && errno != EINPROGRESS) {
    std::abort();
  }
  std::size_t sent = 0;
  while (sent < size) {
    if (!wait_for(fd, POLLOUT, deadline)) std::abort();
    const ssize_t n = ::send(fd, data + sent, size - sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) break;  // the server closed (a refused request): read its answer
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string answer;
  char buffer[4096];
  for (;;) {
    if (!wait_for(fd, POLLIN, deadline)) std::abort();  // neither answered nor closed: a hang
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(n));
    if (answer.size() > (std::size_t{1} << 20)) std::abort();  // answers are small
  }
  ::close(fd);
  // Every answer, when there is one, is HTTP/1.1 with a three-digit status.
  if (!answer.empty()) {
    if (answer.size() < 12 || answer.compare(0, 9, "HTTP/1.1 ") != 0) std::abort();
    for (int i = 9; i < 12; ++i) {
      if (answer[i] < '0' || answer[i] > '9') std::abort();
    }
  }
  assay::fuzz::consume(answer.size());
  return 0;
}
