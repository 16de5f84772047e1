#include "core/cpu_features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "core/error.h"

namespace assay::core {
namespace {

TEST(CpuFeatures, IsaNamesRoundTrip) {
  for (Isa isa : {Isa::kScalar, Isa::kSse2, Isa::kAvx512}) {
    ASSERT_TRUE(parse_isa(isa_name(isa)).has_value());
    EXPECT_EQ(*parse_isa(isa_name(isa)), isa);
  }
  EXPECT_FALSE(parse_isa("AVX512").has_value());
  EXPECT_FALSE(parse_isa("").has_value());
}

// cpu_isa() reads ASSAY_ISA once per process, so each case runs in a fresh process
// (threadsafe death tests re-execute the test binary) and reports through its exit code.
int isa_under(const char* value) {
  ::setenv("ASSAY_ISA", value, 1);
  try {
    return static_cast<int>(cpu_isa());
  } catch (const Error&) {
    return 9;
  }
}

TEST(CpuFeatures, EnvironmentLowersButNeverRaises) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int detected = static_cast<int>(cpu_detected_isa());
  EXPECT_EXIT(std::exit(isa_under("scalar")), ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(std::exit(isa_under("avx512")), ::testing::ExitedWithCode(detected), "");
  EXPECT_EXIT(std::exit(isa_under("sse2")), ::testing::ExitedWithCode(std::min(detected, 1)), "");
  EXPECT_EXIT(std::exit(isa_under("fast")), ::testing::ExitedWithCode(9), "");
  EXPECT_EXIT(std::exit(isa_under("")), ::testing::ExitedWithCode(detected), "");
}

TEST(CpuFeatures, Avx512FollowsTheSelectedIsa) {
  EXPECT_EQ(cpu_has_avx512f(), cpu_isa() >= Isa::kAvx512);
  EXPECT_LE(static_cast<int>(cpu_isa()), static_cast<int>(cpu_detected_isa()));
}

}  // namespace
}  // namespace assay::core
