// GuardedHttpServer: an httplib::Server (cpp-httplib 0.11) that holds under hostile load. It
// replaces the library's per-connection loop (process_and_close_socket) and its thread pool:
//
// - Connection cap: at most max_connections connections are served at once, each on its own
//   thread (threads are started as needed and kept). A connection accepted beyond the cap is
//   answered `503 {"error": ...}` with `Retry-After: 1` at once, without reading it, and closed
//   once the client closes (at most 1 s later); it never waits in a queue. So is a connection
//   for which no thread can be made (a process or memory limit) while no thread is running.
// - Idle timeout: a connection on which no request begins within idle_timeout (the first one
//   or the next one on a keep-alive connection) is closed.
// - Read deadline: from a request's first byte, its request line, headers and body must all
//   arrive within read_timeout (a client dripping a byte at a time is cut then, answered 408
//   if its request line was complete); every write of an answer must also progress within it.
// - Sizes: request line and headers over max_header_bytes → 431; a body over max_body_bytes →
//   413, decided from Content-Length before the body is read, and while it is read for a
//   chunked body (memory stays within the limit); the connection is then closed after the rest
//   of the body is read and discarded (within the read deadline), so that the client reads the
//   answer instead of a reset.
// - Stopping (stop()): idle connections are closed within 100 ms, a request whose line or
//   headers are still coming is answered 503 ("shutting down"); requests read whole, or whose
//   body is being read, are answered as usual.
// - Listening: the socket is bound with SO_REUSEADDR only (no SO_REUSEPORT: a second server on
//   the same port fails instead of sharing the traffic) and listens with `backlog`.
//
// Handlers registered through Post() here get the body read under the limit; bodies of other
// methods are bounded only by the raw byte budget (2 · max_body_bytes + 64 KiB, then 413).
// The pre-routing and expect-100-continue handlers are the guard's own: do not replace them.
// set_error_handler() here sets the handler for errors that are not the guard's.
//
// Error answers of the guard are JSON: {"error": "..."}. Thread-safe as httplib::Server is:
// configure, then bind(), then listen_after_bind() on one thread and stop() from any.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "fairness/connection_counts.h"

namespace assay::fairness {

struct GuardedHttpServerOptions {
  std::size_t max_connections = 256;               // 1..4096
  std::chrono::milliseconds read_timeout{5000};    // 10 ms..600 s
  std::chrono::milliseconds idle_timeout{2000};    // 10 ms..600 s
  int backlog = 1024;                              // 1..65535 (the kernel caps it at somaxconn)
  std::size_t max_body_bytes = 65536;              // ≥ 1
  std::size_t max_header_bytes = 65536;            // ≥ 1024
  std::size_t max_requests_per_connection = 1000;  // ≥ 1; then the connection is closed
};

class GuardedHttpServer : public httplib::Server {
 public:
  // Throws core::UsageError when an option is out of its range (the message names it).
  explicit GuardedHttpServer(GuardedHttpServerOptions options = {});
  ~GuardedHttpServer() override;
  GuardedHttpServer(const GuardedHttpServer&) = delete;
  GuardedHttpServer& operator=(const GuardedHttpServer&) = delete;

  // Binds `host`:`port` (0: any free port) and listens with the backlog; returns the port.
  // Throws core::Error naming HOST:PORT when it cannot ("already in use" when another socket
  // listens there).
  int bind(const std::string& host, int port);

  // A POST handler whose request body was read whole under max_body_bytes (413 otherwise,
  // chunked bodies included; multipart bodies: 415).
  GuardedHttpServer& Post(const std::string& pattern, Handler handler);
  // The handler of error answers (status ≥ 400) that the guard did not write itself.
  GuardedHttpServer& set_error_handler(Handler handler);

  ConnectionCounts counts() const;
  const GuardedHttpServerOptions& options() const;

  struct State;  // defined in the .cc

 private:
  bool process_and_close_socket(socket_t sock) override;

  std::unique_ptr<State> state_;
};

}  // namespace assay::fairness
