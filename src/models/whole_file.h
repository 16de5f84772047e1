// The whole content of a small file (a model's configuration or saved parameters), read for
// parsing and for the content hash of a model identity (core/sha256.h).
#pragma once

#include <string>

namespace assay::models {

// The whole file as bytes. Throws core::IoError naming the file.
std::string read_whole_file(const std::string& path);

}  // namespace assay::models
