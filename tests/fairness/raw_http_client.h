// Plain sockets for the tests of the guarded server: a client that sends exactly the bytes it
// is given (a header a byte at a time, a chunked body, nothing at all) and reads what comes
// back, with deadlines, so a test can see what a hostile client sees.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <utility>

namespace assay::fairness::testing {

using RawClock = std::chrono::steady_clock;

// A connected (blocking) socket to 127.0.0.1:port; -1 on failure.
inline int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  return fd;
}

// Sends all of `data`; false on an error (the server closed) or after `timeout`.
inline bool send_all(int fd, const std::string& data,
                     std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  const auto deadline = RawClock::now() + timeout;
  std::size_t done = 0;
  while (done < data.size()) {
    pollfd p{fd, POLLOUT, 0};
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - RawClock::now()).count();
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// True when `fd` has something to read (data or EOF) within `timeout`.
inline bool readable_within(int fd, std::chrono::milliseconds timeout) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, static_cast<int>(timeout.count())) > 0;
}

// Reads until the peer closes, an error, or `timeout`; `closed` says whether it closed (EOF or
// reset).
inline std::string read_until_closed(int fd, std::chrono::milliseconds timeout,
                                     bool* closed = nullptr) {
  const auto deadline = RawClock::now() + timeout;
  std::string out;
  char buffer[4096];
  if (closed) *closed = false;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - RawClock::now()).count();
    if (left <= 0 || !readable_within(fd, std::chrono::milliseconds(left))) return out;
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
      if (closed) *closed = true;
      return out;
    }
    out.append(buffer, static_cast<std::size_t>(n));
  }
}

// Reads one answer: the head and, when it has a Content-Length, that many body bytes; stops
// early when the peer closes or at `timeout`. Returns what was read.
inline std::string read_answer(int fd, std::chrono::milliseconds timeout) {
  const auto deadline = RawClock::now() + timeout;
  std::string out;
  char buffer[4096];
  for (;;) {
    const std::size_t head_end = out.find("\r\n\r\n");
    if (head_end != std::string::npos) {
      std::size_t length = 0;
      const std::size_t at = out.find("Content-Length: ");
      if (at != std::string::npos && at < head_end) length = std::stoul(out.substr(at + 16));
      if (out.size() >= head_end + 4 + length) return out;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - RawClock::now()).count();
    if (left <= 0 || !readable_within(fd, std::chrono::milliseconds(left))) return out;
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return out;
    out.append(buffer, static_cast<std::size_t>(n));
  }
}

// The status of an answer ("HTTP/1.1 413 ..." → 413); 0 when there is none.
inline int status_of(const std::string& answer) {
  if (answer.rfind("HTTP/1.", 0) != 0 || answer.size() < 12) return 0;
  return std::atoi(answer.c_str() + 9);
}

// A loopback listener on a free port that allows port sharing (SO_REUSEPORT, as httplib's own
// sockets do), for checking that a server refuses to share its port; {fd, port}, fd -1 on
// failure. The caller closes fd.
inline std::pair<int, int> reuseport_listener() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return {-1, 0};
  int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof yes);
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = 0;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 5) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(fd);
    return {-1, 0};
  }
  return {fd, ntohs(a.sin_port)};
}

}  // namespace assay::fairness::testing
