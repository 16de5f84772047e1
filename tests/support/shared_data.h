// The one rule for tests whose data is absent: a test that reads ../shared/data (or a file a
// Debian package installs) skips when the file is not there, naming it; ctest counts skipped
// tests and lists them in its summary. Nothing else is skipped silently.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

// Use at the top of a test body (or SetUp): skips the test when `path` does not exist.
#define ASSAY_REQUIRE_FILE(path)                                                        \
  do {                                                                                  \
    const std::string assay_required_path_ = (path);                                    \
    if (!std::filesystem::exists(assay_required_path_))                                 \
      GTEST_SKIP() << "data absent: " << assay_required_path_                           \
                   << " (../shared/data beside the repository, or its Debian package)"; \
  } while (0)
