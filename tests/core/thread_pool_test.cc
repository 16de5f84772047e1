#include "core/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

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
