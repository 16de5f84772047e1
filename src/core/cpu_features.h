// What the CPU running us can do, for kernels chosen at run time (the build targets baseline
// x86-64; files with faster paths give their functions a target attribute). Every run-time
// choice of a hand-written kernel goes through cpu_isa(), so one switch lowers them all.
#pragma once

#include <optional>
#include <string_view>

namespace assay::core {

// Instruction sets the hand-written kernels use, in increasing order.
//   kScalar  plain C++ loops only (the reference paths)
//   kSse2    x86-64 baseline vector code (SSE2 intrinsics)
//   kAvx512  AVX-512 Foundation kernels
enum class Isa { kScalar, kSse2, kAvx512 };

// The instruction set kernels may use: the best the CPU has, lowered (never raised) by the
// environment variable ASSAY_ISA = scalar | sse2 | avx512, read once per process. Kernels give
// the same bits at every level, so ASSAY_ISA=scalar runs the reference paths on any machine
// (CI runs the recsys tests once more under it). Throws core::Error naming the variable when
// its value is none of those.
Isa cpu_isa();

// The ISA the CPU itself supports, ignoring ASSAY_ISA.
Isa cpu_detected_isa();

// "scalar", "sse2", "avx512" and back; nullopt for any other name.
std::string_view isa_name(Isa isa);
std::optional<Isa> parse_isa(std::string_view name);

// cpu_isa() >= Isa::kAvx512.
bool cpu_has_avx512f();

}  // namespace assay::core
