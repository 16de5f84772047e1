#include "core/check.h"

#include <cstdio>
#include <cstdlib>

namespace assay::core::detail {

void check_failed(const char* file, int line, const char* condition, const char* message) {
  std::fprintf(stderr, "assay: internal error at %s:%d: check failed: %s%s%s\n", file, line,
               condition, message ? ": " : "", message ? message : "");
  std::fflush(stderr);
  std::abort();
}

}  // namespace assay::core::detail
