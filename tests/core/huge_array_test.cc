// HugeArray: zeroed on creation below and above the mapping threshold, every element
// writable (ASan checks the bounds of the calloc path), 2 MiB-aligned when mapped, moves; the
// memory resource over the same allocation, directly and as an arena's upstream.
#include "core/huge_array.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>
#include <vector>

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

TEST(HugePageResource, ZeroedAlignedAndGivenBack) {
  std::pmr::memory_resource* r = assay::core::huge_page_resource();
  EXPECT_EQ(r, assay::core::huge_page_resource());
  EXPECT_TRUE(r->is_equal(*r));
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{24}, kHugeThreshold - 8,
                                  kHugeThreshold, 3 * kHugeThreshold + 5}) {
    SCOPED_TRACE(bytes);
    auto* p = static_cast<unsigned char*>(r->allocate(bytes, alignof(std::max_align_t)));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t), 0u);
    if (bytes >= kHugeThreshold) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kHugeThreshold, 0u);
    }
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < bytes; ++i) nonzero += p[i] != 0;
    EXPECT_EQ(nonzero, 0u);
    p[0] = 1;
    p[bytes - 1] = 2;
    r->deallocate(p, bytes, alignof(std::max_align_t));
  }
  EXPECT_THROW(static_cast<void>(r->allocate(64, 2 * alignof(std::max_align_t))), std::bad_alloc);
}

TEST(HugePageResource, UpstreamOfAnArena) {
  // An arena's containers filled past several of its chunks keep every value.
  std::pmr::monotonic_buffer_resource arena(kHugeThreshold - 256,
                                            assay::core::huge_page_resource());
  std::vector<std::pmr::vector<std::uint64_t>> lists;
  for (std::uint64_t k = 0; k < 40; ++k) {
    lists.emplace_back(std::size_t{1} << 15, k, &arena);  // 256 KiB each, 10 MiB in all
  }
  for (std::uint64_t k = 0; k < 40; ++k) {
    EXPECT_EQ(lists[k].front(), k);
    EXPECT_EQ(lists[k].back(), k);
  }
}

}  // namespace
