// The message of the error a call throws, for tests that check what bad input is told.
#pragma once

#include <string>
#include <utility>

#include "core/error.h"

namespace assay::testing {

// Runs `fn`; returns the what() of the E it throws, or "(no error)" when it throws nothing
// (any other exception escapes and fails the test).
template <typename E = assay::core::Error, typename Fn>
std::string error_message_of(Fn&& fn) {
  try {
    std::forward<Fn>(fn)();
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace assay::testing
