// ASSAY_CHECK is for bugs, not bad input: when the condition is false it prints the code
// location and the condition to stderr and aborts. Bad input throws assay::core::Error.
#pragma once

namespace assay::core::detail {
[[noreturn]] void check_failed(const char* file, int line, const char* condition,
                               const char* message);
}  // namespace assay::core::detail

#define ASSAY_CHECK(condition)                                                      \
  do {                                                                              \
    if (!(condition))                                                               \
      ::assay::core::detail::check_failed(__FILE__, __LINE__, #condition, nullptr); \
  } while (false)

#define ASSAY_CHECK_MSG(condition, message)                                         \
  do {                                                                              \
    if (!(condition))                                                               \
      ::assay::core::detail::check_failed(__FILE__, __LINE__, #condition, message); \
  } while (false)
