#include "core/cpu_features.h"

#include <cstdlib>
#include <string>

#include "core/error.h"

namespace assay::core {

Isa cpu_detected_isa() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const Isa detected = __builtin_cpu_supports("avx512f") != 0 ? Isa::kAvx512 : Isa::kSse2;
  return detected;
#else
  return Isa::kScalar;
#endif
}

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kSse2:
      return "sse2";
    case Isa::kAvx512:
      return "avx512";
  }
  return "scalar";
}

std::optional<Isa> parse_isa(std::string_view name) {
  for (Isa isa : {Isa::kScalar, Isa::kSse2, Isa::kAvx512}) {
    if (name == isa_name(isa)) return isa;
  }
  return std::nullopt;
}

namespace {

Isa isa_from_environment() {
  const Isa detected = cpu_detected_isa();
  const char* value = std::getenv("ASSAY_ISA");
  if (value == nullptr || *value == '\0') return detected;
  const std::optional<Isa> requested = parse_isa(value);
  if (!requested) {
    throw Error(
        std::string("environment variable ASSAY_ISA: expected scalar, sse2 or avx512, got '") +
        std::string(value).substr(0, 40) + "'");
  }
  return *requested < detected ? *requested : detected;
}

}  // namespace

Isa cpu_isa() {
  static const Isa isa = isa_from_environment();
  return isa;
}

bool cpu_has_avx512f() {
  return cpu_isa() >= Isa::kAvx512;
}

}  // namespace assay::core
