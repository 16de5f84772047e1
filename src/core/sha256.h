// SHA-256 (OpenSSL's), as lower-case hex: the one content hash of the tree — model identities
// (models/), answer-cache keys and store identities (core::file_content_hash) are made of it.
#pragma once

#include <string>
#include <string_view>

namespace assay::core {

// Lower-case hex SHA-256 (64 digits) of `bytes`.
std::string sha256_hex(std::string_view bytes);

// Lower-case hex SHA-256 of the file's content, read in 1 MiB blocks. Throws core::IoError
// naming the file when it cannot be opened or read.
std::string file_sha256_hex(const std::string& path);

}  // namespace assay::core
