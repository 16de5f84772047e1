// What the CPU running us can do, for kernels chosen at run time (the build targets baseline
// x86-64; files with faster paths give their functions a target attribute).
#pragma once

namespace assay::core {

// AVX-512 Foundation; false off x86-64 or with a compiler without __builtin_cpu_supports.
bool cpu_has_avx512f();

}  // namespace assay::core
