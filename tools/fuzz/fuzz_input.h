// Helpers shared by the libFuzzer targets (tools/fuzz/*_fuzzer.cc).
//
// Most parsers read a named file, so a target writes the input bytes to one file per process
// (under /dev/shm when it exists: no disk traffic) and hands the path to the real reader.
// Outcome rules: returning normally or throwing assay::core::Error (ParseError, IoError, ...) is
// the expected outcome for hostile input; anything else is a finding: a crash, a sanitizer
// report, a hang, memory exhaustion, or an exception of another type (it escapes the target and
// libFuzzer reports the abort that follows).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.h"

namespace assay::fuzz {

// Writes `data` to this process's input file for `name` (the suffix matters to readers that
// look at it, e.g. ".gz") and returns its path. The same path is reused for every input.
inline const std::string& write_input(const std::uint8_t* data, std::size_t size,
                                      std::string_view name) {
  struct TempFile {
    std::string path;
    ~TempFile() {
      if (!path.empty()) std::remove(path.c_str());
    }
  };
  static TempFile file;
  std::string& path = file.path;
  if (path.empty()) {
    const char* dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    path = std::string(dir) + "/assay-fuzz-" + std::to_string(::getpid()) + "-" + std::string(name);
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  if (std::fclose(f) != 0) std::abort();
  return path;
}

// The expected outcome of a bad input. With ASSAY_FUZZ_VERBOSE set (e.g. when replaying a
// seed: ASSAY_FUZZ_VERBOSE=1 build/fuzz/csv_fuzzer corpus/csv/*) the message is printed, to
// see which inputs a parser rejects and why.
inline void rejected(const core::Error& e) {
  static const bool verbose = std::getenv("ASSAY_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "rejected: %s\n", e.what());
}

// Keeps values computed from a parsed result observable, so reads are not optimised away.
template <typename T>
inline void consume(const T& value) {
  static volatile T sink;
  sink = value;
}

}  // namespace assay::fuzz
