// The one instruction-set selection of the recsys kernels. Every run-time choice between a
// kernel's scalar, SSE2 and AVX-512 paths in src/recsys asks isa(), which is core::cpu_isa():
// the best the CPU has, lowered by the environment variable ASSAY_ISA = scalar | sse2 | avx512.
// Every path gives the same bits, so ASSAY_ISA=scalar runs the reference loops anywhere.
// Internal to recsys: the public headers never name a kernel or an instruction set.
#pragma once

#include "core/cpu_features.h"

namespace assay::recsys::kernels {

inline core::Isa isa() {
  return core::cpu_isa();
}
inline bool has_sse2() {
  return isa() >= core::Isa::kSse2;
}
inline bool has_avx512() {
  return isa() >= core::Isa::kAvx512;
}

}  // namespace assay::recsys::kernels
