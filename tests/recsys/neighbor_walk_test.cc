// The neighbour-list walk: the AVX-512 loop finds the same positions as the scalar one, and the
// scalar one the positions a plain reading of the contract gives.
#include "recsys/kernels/neighbor_walk.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "recsys/kernels/isa.h"

namespace {

using namespace assay::recsys::kernels;

// The first k positions of rated items, read off the definition.
std::vector<std::uint32_t> expected_hits(const std::vector<std::uint16_t>& ids,
                                         const std::vector<std::uint32_t>& flag, std::size_t k) {
  std::vector<std::uint32_t> out;
  for (std::size_t p = 0; p < ids.size() && out.size() < k; ++p) {
    if (flag[ids[p]] != 0) out.push_back(static_cast<std::uint32_t>(p));
  }
  return out;
}

TEST(NeighborWalk, BothLoopsFindTheFirstKRatedPositions) {
  std::mt19937 rng(7);
  const bool vector = has_avx512();
  if (!vector) std::printf("no AVX-512 here: the scalar loop alone is checked\n");
  std::size_t cases = 0, exhausted = 0;
  for (std::size_t n_items : {1u, 9u, 64u, 65u, 700u, 2048u}) {
    for (double density : {0.0, 0.02, 0.3, 1.0}) {
      for (std::size_t len : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 32u, 33u, 100u, 2048u}) {
        for (std::size_t k : {1u, 5u, 20u}) {
          std::vector<std::uint32_t> flag(n_items, 0);
          std::vector<std::uint64_t> bits(kBitmapWords, 0);
          std::bernoulli_distribution rated(density);
          for (std::size_t i = 0; i < n_items; ++i) {
            if (!rated(rng)) continue;
            flag[i] = 1;
            bits[i / 64] |= std::uint64_t{1} << (i % 64);
          }
          std::uniform_int_distribution<std::uint32_t> pick(0, n_items - 1);
          std::vector<std::uint16_t> ids(len);
          for (auto& id : ids) id = static_cast<std::uint16_t>(pick(rng));
          const auto want = expected_hits(ids, flag, k);
          exhausted += want.size() < k ? 1 : 0;
          std::vector<std::uint32_t> hits(k + kWalkSlack, 0xdeadbeef);
          const std::size_t n_scalar =
              walk_rated_scalar(ids.data(), len, flag.data(), k, hits.data());
          ASSERT_EQ(n_scalar, want.size()) << n_items << " " << density << " " << len << " " << k;
          for (std::size_t h = 0; h < n_scalar; ++h) ASSERT_EQ(hits[h], want[h]);
          if (vector) {
            std::fill(hits.begin(), hits.end(), 0xdeadbeef);
            const std::size_t n_vector =
                walk_rated_avx512(ids.data(), len, bits.data(), k, hits.data());
            ASSERT_EQ(n_vector, want.size()) << n_items << " " << density << " " << len << " " << k;
            for (std::size_t h = 0; h < n_vector; ++h) ASSERT_EQ(hits[h], want[h]);
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 6u * 4u * 13u * 3u);
  EXPECT_GT(exhausted, 0u);  // lists that end before k hits were met
}

}  // namespace
