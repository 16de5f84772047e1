// Content hashes for model identities: a changed model file or script gets a new identity, so
// cached answers of the old one are never reused.
#pragma once

#include <string>
#include <string_view>

namespace assay::models {

// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

// Lower-case hex SHA-256 of the file's content. Throws core::IoError naming the file.
std::string file_sha256_hex(const std::string& path);

// The whole file as bytes. Throws core::IoError naming the file.
std::string read_whole_file(const std::string& path);

}  // namespace assay::models
