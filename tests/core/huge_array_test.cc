// HugeArray: zeroed on creation below and above the mapping threshold, every element
// writable (ASan checks the bounds of the calloc path), 2 MiB-aligned when mapped, moves.
#include "core/huge_array.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using assay::core::HugeArray;
using assay::core::detail::kHugeThreshold;

TEST(HugeArray, ZeroedAndWritableAtEverySize) {
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{1000}, kHugeThreshold / 4 - 1, kHugeThreshold / 4,
        kHugeThreshold / 4 + 1, 3 * kHugeThreshold / 4 + 17}) {
    SCOPED_TRACE(n);
    HugeArray<float> a(n);
    ASSERT_EQ(a.size(), n);
    std::size_t nonzero = 0;
    for (const float v : a) nonzero += v != 0.0f;
    EXPECT_EQ(nonzero, 0u);
    a[0] = 1.0f;
    a[n - 1] = 2.0f;
    EXPECT_EQ(a[n - 1], 2.0f);
    if (n * sizeof(float) >= kHugeThreshold) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % kHugeThreshold, 0u);
    }
  }
}

TEST(HugeArray, EmptyAndMoved) {
  HugeArray<std::uint16_t> empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.begin(), empty.end());
  HugeArray<std::uint16_t> a(kHugeThreshold);  // 4 MiB: mapped
  a[7] = 7;
  const std::uint16_t* p = a.data();
  HugeArray<std::uint16_t> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b[7], 7);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): the moved-from state is empty
  a = std::move(b);
  EXPECT_EQ(a[7], 7);
  a = HugeArray<std::uint16_t>(3);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(a[2], 0);
}

}  // namespace
