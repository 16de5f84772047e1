// The whole content of a small file (a model's configuration or saved parameters), read for
// parsing and for the content hash of a model identity (core/sha256.h).
#pragma once

#include <cstddef>
#include <string>

namespace assay::models {

// The largest file read_whole_file takes by default.
inline constexpr std::size_t kMaxWholeFileBytes = std::size_t{1} << 30;

// The whole file as bytes, for a JSON text. The read stops as soon as it meets a NUL byte (no
// JSON text holds one: a device such as /dev/zero, or a binary file given by mistake) or passes
// `max_bytes`, so neither makes memory grow. Throws core::IoError naming the file when it cannot
// be read, core::ParseError naming the file and byte for a NUL or an over-long file.
std::string read_whole_file(const std::string& path, std::size_t max_bytes = kMaxWholeFileBytes);

}  // namespace assay::models
