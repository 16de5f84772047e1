#include "core/thread_pool.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"

namespace assay::core {
namespace {

TEST(ThreadPool, VisitsEveryIndexOnce) {
  for (std::size_t threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    std::vector<std::atomic<int>> hits(1000);
    pool.parallel_for(0, hits.size(), 7, [&](std::size_t i) { hits[i]++; });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
    // The pool is reusable.
    pool.parallel_for(10, 20, 1, [&](std::size_t i) { hits[i]++; });
    EXPECT_EQ(hits[15].load(), 2);
    EXPECT_EQ(hits[9].load(), 1);
  }
}

// Under an address-space limit that leaves room for a few thread stacks only, asking for 4,096
// threads is an error naming the count, after the threads started are joined (the process
// neither aborts nor hangs). Run in a child process: the limit is the child's.
TEST(ThreadPool, ThreadsTheSystemRefusesAreAnErrorNotAHang) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: an address-space "
                  "limit stops the sanitized process itself (the release build runs this test)";
#endif
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipe_fds[0]);
    ::alarm(60);  // a hang ends the child with SIGALRM
    const rlimit limit{1ull << 30, 1ull << 30};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(97);
    try {
      ThreadPool pool(4096);
      ::_exit(10);
    } catch (const UsageError& e) {
      (void)!::write(pipe_fds[1], e.what(), std::strlen(e.what()));
      ::_exit(20);
    }
  }
  ::close(pipe_fds[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, n);
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 20);
  EXPECT_NE(message.find("cannot start 4096 threads"), std::string::npos) << message;
  EXPECT_NE(message.find("give fewer threads"), std::string::npos) << message;
}

TEST(ThreadPool, RethrowsTheFirstWorkerException) {
  ThreadPool pool(2);
  std::atomic<int> after{0};
  EXPECT_THROW(pool.parallel_for(0, 10000, 1,
                                 [&](std::size_t i) {
                                   if (i == 3) throw std::runtime_error("boom");
                                   after++;
                                 }),
               std::runtime_error);
  EXPECT_LT(after.load(), 10000);
  // Still usable after an exception.
  std::atomic<int> n{0};
  pool.parallel_for(0, 100, 10, [&](std::size_t) { n++; });
  EXPECT_EQ(n.load(), 100);
}

TEST(ThreadPool, SeededWorkIsIndependentOfThreadCount) {
  auto run = [](std::size_t threads) {
    std::vector<std::uint64_t> out(200);
    parallel_for(threads, 0, out.size(), 3, [&](std::size_t i) {
      Rng rng(99, i);
      std::uint64_t acc = 0;
      for (int k = 0; k < 100; ++k) acc ^= rng.next();
      out[i] = acc;
    });
    return out;
  };
  EXPECT_EQ(run(1), run(2));
  EXPECT_EQ(run(1), run(3));
}

}  // namespace
}  // namespace assay::core
