// GuardedHttpServer in-process on loopback, asked over plain sockets the way hostile clients
// ask: connections over the cap get 503 at once, bodies over the limit 413 (by Content-Length
// before the body, chunked while it is read), a header dripped a byte at a time and an idle
// connection are cut, the backlog is the one asked for, a taken port is an error naming it.
#include "fairness/guarded_http_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "core/error.h"
#include "raw_http_client.h"

namespace assay::fairness {
namespace {

using namespace std::chrono_literals;
using testing::connect_loopback;
using ::testing::HasSubstr;
using testing::read_answer;
using testing::read_until_closed;
using testing::send_all;
using testing::status_of;

double seconds_since(testing::RawClock::time_point t) {
  return std::chrono::duration<double>(testing::RawClock::now() - t).count();
}

// The server on its own thread: GET /health answers "ok", POST /echo the body's size.
class Running {
 public:
  explicit Running(GuardedHttpServerOptions o) : server_(o) {
    server_.Get("/health", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("ok", "text/plain");
    });
    server_.Post("/echo", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(std::to_string(req.body.size()), "text/plain");
    });
    port_ = server_.bind("127.0.0.1", 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(1ms);
  }
  ~Running() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }
  GuardedHttpServer& server() { return server_; }
  // Waits (at most 5 s) until `pred` holds for the counts.
  template <typename Pred>
  bool wait_counts(Pred pred) {
    for (int i = 0; i < 500; ++i) {
      if (pred(server_.counts())) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

 private:
  GuardedHttpServer server_;
  int port_ = 0;
  std::thread thread_;
};

const std::string kHealth = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";

TEST(GuardedHttpServer, ConnectionsOverTheCapGet503AtOnce) {
  GuardedHttpServerOptions o;
  o.max_connections = 2;
  o.idle_timeout = 10s;
  Running r(o);
  const int a = connect_loopback(r.port()), b = connect_loopback(r.port());
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  ASSERT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.open == 2; }));
  const auto t0 = testing::RawClock::now();
  const int c = connect_loopback(r.port());
  ASSERT_TRUE(send_all(c, kHealth));
  const std::string answer = read_answer(c, 2000ms);
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_EQ(status_of(answer), 503) << answer;
  EXPECT_THAT(answer, HasSubstr("Retry-After: 1\r\n"));
  EXPECT_THAT(answer, HasSubstr("Connection: close\r\n"));
  EXPECT_THAT(answer, HasSubstr("too many connections"));
  bool closed = false;
  read_until_closed(c, 3000ms, &closed);
  EXPECT_TRUE(closed);
  ::close(c);
  EXPECT_EQ(r.server().counts().refused, 1u);
  // The connections served still are.
  ASSERT_TRUE(send_all(a, kHealth));
  EXPECT_EQ(status_of(read_answer(a, 2000ms)), 200);
  ::close(a);
  ::close(b);
  ASSERT_TRUE(r.wait_counts([](const ConnectionCounts& x) { return x.open == 0; }));
  const int d = connect_loopback(r.port());
  ASSERT_TRUE(send_all(d, kHealth));
  EXPECT_EQ(status_of(read_answer(d, 2000ms)), 200);
  ::close(d);
}

TEST(GuardedHttpServer, ContentLengthOverTheLimitIs413BeforeTheBody) {
  GuardedHttpServerOptions o;
  o.max_body_bytes = 1024;
  Running r(o);
  const int fd = connect_loopback(r.port());
  const auto t0 = testing::RawClock::now();
  ASSERT_TRUE(send_all(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 52428800\r\n\r\n" +
                               std::string(4096, 'x')));
  const std::string answer = read_answer(fd, 2000ms);
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_EQ(status_of(answer), 413) << answer;
  EXPECT_THAT(answer, HasSubstr("Connection: close\r\n"));
  EXPECT_THAT(answer, HasSubstr("larger than the limit of 1024 bytes"));
  ::close(fd);
  // A body within the limit, then one of exactly the limit, on one connection.
  const int ok = connect_loopback(r.port());
  for (const std::size_t n : {10, 1024}) {
    ASSERT_TRUE(send_all(ok, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                 std::to_string(n) + "\r\n\r\n" + std::string(n, 'y')));
    const std::string a = read_answer(ok, 2000ms);
    EXPECT_EQ(status_of(a), 200) << a;
    EXPECT_THAT(a, ::testing::EndsWith("\r\n\r\n" + std::to_string(n)));
  }
  ::close(ok);
  // Counted once the answer is written.
  EXPECT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.too_large == 1; }));
}

std::string chunk(const std::string& data) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  return size + data + "\r\n";
}

TEST(GuardedHttpServer, ChunkedBodyOverTheLimitIs413WhileItIsRead) {
  GuardedHttpServerOptions o;
  o.max_body_bytes = 1024;
  Running r(o);
  // Within the limit (1,000 bytes in 10 chunks): read whole.
  {
    const int fd = connect_loopback(r.port());
    std::string request = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 10; ++i) request += chunk(std::string(100, 'a'));
    ASSERT_TRUE(send_all(fd, request + "0\r\n\r\n"));
    const std::string a = read_answer(fd, 2000ms);
    EXPECT_EQ(status_of(a), 200) << a;
    EXPECT_THAT(a, ::testing::EndsWith("\r\n\r\n1000"));
    ::close(fd);
  }
  // Over it: chunks of 512 bytes keep coming; the answer comes after the third.
  const int fd = connect_loopback(r.port());
  const auto t0 = testing::RawClock::now();
  ASSERT_TRUE(send_all(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"));
  std::string answer;
  for (int i = 0; i < 2000 && answer.empty(); ++i) {
    if (!send_all(fd, chunk(std::string(512, 'b')))) break;
    if (testing::readable_within(fd, 0ms)) answer = read_answer(fd, 2000ms);
  }
  if (answer.empty()) answer = read_answer(fd, 2000ms);
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_EQ(status_of(answer), 413) << answer;
  EXPECT_THAT(answer, HasSubstr("Connection: close\r\n"));
  ::close(fd);
  // Counted once the answer is written.
  EXPECT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.too_large == 1; }));
}

TEST(GuardedHttpServer, HeaderDrippedAByteAtATimeIsCut) {
  GuardedHttpServerOptions o;
  o.read_timeout = 300ms;
  Running r(o);
  const int fd = connect_loopback(r.port());
  const auto t0 = testing::RawClock::now();
  ASSERT_TRUE(send_all(fd, "GET /health HTTP/1.1\r\n"));
  const std::string drip = "X-Slow: " + std::string(200, 'z');
  bool cut = false;
  for (const char ch : drip) {
    if (!send_all(fd, std::string(1, ch)) || testing::readable_within(fd, 20ms)) {
      cut = true;
      break;
    }
  }
  EXPECT_TRUE(cut);
  const double when = seconds_since(t0);
  EXPECT_GT(when, 0.25);
  EXPECT_LT(when, 1.5);
  bool closed = false;
  const std::string answer = read_until_closed(fd, 2000ms, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(status_of(answer), 408) << answer;
  ::close(fd);
  ASSERT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.read_timeouts == 1; }));
  // Others are served meanwhile and after.
  const int ok = connect_loopback(r.port());
  ASSERT_TRUE(send_all(ok, kHealth));
  EXPECT_EQ(status_of(read_answer(ok, 2000ms)), 200);
  ::close(ok);
}

TEST(GuardedHttpServer, IdleConnectionIsClosedAndOversizedHeadersAre431) {
  GuardedHttpServerOptions o;
  o.idle_timeout = 200ms;
  Running r(o);
  const int fd = connect_loopback(r.port());
  const auto t0 = testing::RawClock::now();
  bool closed = false;
  EXPECT_EQ(read_until_closed(fd, 3000ms, &closed), "");
  EXPECT_TRUE(closed);
  EXPECT_GT(seconds_since(t0), 0.15);
  EXPECT_LT(seconds_since(t0), 1.5);
  ::close(fd);
  ASSERT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.idle_timeouts == 1; }));

  const int big = connect_loopback(r.port());
  send_all(big, "GET /health HTTP/1.1\r\nX-Big: " + std::string(70'000, 'h') + "\r\n\r\n");
  const std::string answer = read_answer(big, 2000ms);
  EXPECT_EQ(status_of(answer), 431) << answer.substr(0, 200);
  ::close(big);
  EXPECT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.headers_too_large == 1; }));
}

TEST(GuardedHttpServer, RequestLineOverTheLimitIs431NotAClosedSocket) {
  Running r(GuardedHttpServerOptions{});
  const int fd = connect_loopback(r.port());
  send_all(fd, "GET /" + std::string(70'000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string answer = read_answer(fd, 3000ms);
  EXPECT_EQ(status_of(answer), 431) << answer.substr(0, 200);
  EXPECT_THAT(answer, HasSubstr("Connection: close\r\n"));
  EXPECT_THAT(answer, HasSubstr("larger than 65536 bytes"));
  ::close(fd);
  EXPECT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.headers_too_large == 1; }));
}

// Slow connections (nothing sent) arriving in a burst while a few threads are idle each get a
// thread of their own: a request behind them is answered at once, not after their idle timeout.
TEST(GuardedHttpServer, BurstOfSlowConnectionsDoesNotQueueTheNextRequest) {
  GuardedHttpServerOptions o;
  o.idle_timeout = 5s;
  Running r(o);
  for (int round = 0; round < 3; ++round) {
    // A few threads made and left idle.
    std::vector<int> warm;
    for (int i = 0; i < 4; ++i) warm.push_back(connect_loopback(r.port()));
    for (const int fd : warm) {
      ASSERT_TRUE(send_all(fd, kHealth));
      EXPECT_EQ(status_of(read_answer(fd, 2000ms)), 200);
      ::close(fd);
    }
    ASSERT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.open == 0; }));
    std::vector<int> slow;
    for (int i = 0; i < 40; ++i) slow.push_back(connect_loopback(r.port()));
    const auto t0 = testing::RawClock::now();
    const int fd = connect_loopback(r.port());
    ASSERT_TRUE(send_all(fd, kHealth));
    EXPECT_EQ(status_of(read_answer(fd, 8000ms)), 200);
    EXPECT_LT(seconds_since(t0), 1.0) << "round " << round;
    ::close(fd);
    for (const int s : slow) ::close(s);
    ASSERT_TRUE(r.wait_counts([](const ConnectionCounts& c) { return c.open == 0; }));
  }
}

TEST(GuardedHttpServer, StopClosesIdleAndHalfSentConnectionsAtOnce) {
  GuardedHttpServerOptions o;
  o.idle_timeout = 30s;
  o.read_timeout = 30s;
  auto r = std::make_unique<Running>(o);
  const int fd = connect_loopback(r->port());
  ASSERT_TRUE(send_all(fd, kHealth));
  EXPECT_EQ(status_of(read_answer(fd, 2000ms)), 200);  // then kept alive, idle
  const int half = connect_loopback(r->port());
  ASSERT_TRUE(send_all(half, "GET /health HTTP/1.1\r\nX-Slow: a"));  // headers still coming
  ASSERT_TRUE(r->wait_counts([](const ConnectionCounts& c) { return c.open == 2; }));
  const auto t0 = testing::RawClock::now();
  r.reset();  // stop() and join
  EXPECT_LT(seconds_since(t0), 1.0);
  bool closed = false;
  read_until_closed(fd, 1000ms, &closed);
  EXPECT_TRUE(closed);
  ::close(fd);
  const std::string answer = read_until_closed(half, 1000ms, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(status_of(answer), 503) << answer;
  EXPECT_THAT(answer, HasSubstr("shutting down"));
  ::close(half);
}

TEST(GuardedHttpServer, ListensWithTheBacklogAskedFor) {
  // Nobody accepts: the kernel completes backlog + 1 handshakes and leaves the rest waiting
  // (httplib alone listens with 5).
  GuardedHttpServerOptions o;
  o.backlog = 100;
  GuardedHttpServer server(o);
  const int port = server.bind("127.0.0.1", 0);
  std::vector<int> fds;
  for (int i = 0; i < 150; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
    fds.push_back(fd);
  }
  std::this_thread::sleep_for(300ms);
  int connected = 0;
  for (const int fd : fds) {
    pollfd p{fd, POLLOUT, 0};
    int err = 1;
    socklen_t len = sizeof err;
    if (::poll(&p, 1, 0) == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 &&
        err == 0)
      ++connected;
    ::close(fd);
  }
  EXPECT_GE(connected, 100);
  EXPECT_LT(connected, 150);
}

TEST(GuardedHttpServer, PortTakenIsAnErrorNamingTheAddress) {
  GuardedHttpServer first;
  const int port = first.bind("127.0.0.1", 0);
  GuardedHttpServer second;
  try {
    second.bind("127.0.0.1", port);
    FAIL() << "bound a port in use";
  } catch (const core::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("127.0.0.1:" + std::to_string(port)));
    EXPECT_THAT(e.what(), HasSubstr("already in use"));
  }
  // A listener that allows SO_REUSEPORT (as httplib's own sockets do) is not shared either.
  const auto [other, other_port] = testing::reuseport_listener();
  ASSERT_GE(other, 0);
  GuardedHttpServer third;
  EXPECT_THROW(third.bind("127.0.0.1", other_port), core::Error);
  ::close(other);
}

TEST(GuardedHttpServer, OptionsOutOfRangeAreUsageErrors) {
  const auto message = [](GuardedHttpServerOptions o) -> std::string {
    try {
      GuardedHttpServer s(o);
    } catch (const core::UsageError& e) {
      return e.what();
    }
    return "";
  };
  GuardedHttpServerOptions o;
  o.max_connections = 0;
  EXPECT_THAT(message(o), HasSubstr("the connection limit 0 is not in 1..4096"));
  o = {};
  o.max_connections = 4097;
  EXPECT_THAT(message(o), HasSubstr("the connection limit 4097"));
  o = {};
  o.read_timeout = 5ms;
  EXPECT_THAT(message(o), HasSubstr("the read timeout (ms) 5 is not in 10..600000"));
  o = {};
  o.idle_timeout = 600'001ms;
  EXPECT_THAT(message(o), HasSubstr("the idle timeout (ms) 600001"));
  o = {};
  o.backlog = 0;
  EXPECT_THAT(message(o), HasSubstr("the listen backlog 0 is not in 1..65535"));
}

}  // namespace
}  // namespace assay::fairness
