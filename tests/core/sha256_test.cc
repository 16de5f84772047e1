// core::sha256_hex / file_sha256_hex against the FIPS 180-2 vectors, and a file that spans
// more than one read block: model identities and store identities are made of these digests,
// so a change here would silently invalidate every cache and store.
#include "core/sha256.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "support/error_message.h"
#include "support/temp_dir.h"

namespace assay::core {
namespace {

using ::assay::testing::TempDir;

TEST(Sha256, FipsVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, FileDigestEqualsTheDigestOfItsBytesAcrossReadBlocks) {
  TempDir dir;
  std::string bytes((std::size_t{1} << 20) + 3, '\0');  // one 1 MiB block and 3 bytes more
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i % 251);
  const std::string path = dir.write("blocks.bin", bytes);
  EXPECT_EQ(file_sha256_hex(path),
            "aca6f4d81a88030dc3e4b99988449ba2943885a56a5ebda5be275f64149677fe");
  EXPECT_EQ(file_sha256_hex(path), sha256_hex(bytes));
  EXPECT_EQ(file_sha256_hex(dir.write("empty", "")), sha256_hex(""));
}

TEST(Sha256, MissingFileIsAnIoErrorNamingIt) {
  TempDir dir;
  const std::string path = dir.file("absent.bin");
  EXPECT_THROW(file_sha256_hex(path), IoError);
  EXPECT_THAT(::assay::testing::error_message_of<IoError>([&] { file_sha256_hex(path); }),
              ::testing::HasSubstr(path + ": cannot open for reading"));
}

}  // namespace
}  // namespace assay::core
