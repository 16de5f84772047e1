// Seeded random streams. Every unit of work derives its own stream from (seed, stream id), so
// it can be replayed alone and gives the same numbers whatever thread or MPI rank runs it.
// The generator (xoshiro256**) and the distributions are written here, not taken from <random>,
// whose distributions differ between standard libraries.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>

namespace assay::core {

class Rng {
 public:
  using result_type = std::uint64_t;

  // A stream for (seed, stream_id); different ids give independent streams.
  Rng(std::uint64_t seed, std::uint64_t stream_id = 0);

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() { return next(); }

  std::uint64_t next();
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Uniform integer in [0, n) without modulo bias; n > 0.
  std::uint64_t below(std::uint64_t n);
  // Uniform integer in [lo, hi].
  std::int64_t between(std::int64_t lo, std::int64_t hi);
  // Standard normal (Marsaglia polar method).
  double normal();
  bool bernoulli(double p) { return uniform() < p; }

  // Fisher-Yates shuffle of [first, last).
  template <class It>
  void shuffle(It first, It last) {
    const auto n = static_cast<std::uint64_t>(last - first);
    for (std::uint64_t i = n; i > 1; --i) {
      const std::uint64_t j = below(i);
      using std::swap;
      swap(first[i - 1], first[j]);
    }
  }

 private:
  std::uint64_t s_[4];
  double spare_normal_ = 0;
  bool has_spare_ = false;
};

// splitmix64 finaliser; used to derive seeds.
std::uint64_t mix64(std::uint64_t x);
// A seed for sub-unit `id` of `seed` (e.g. run id within a campaign).
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t id);

}  // namespace assay::core
