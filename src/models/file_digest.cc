#include "models/file_digest.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.h"

namespace assay::models {
namespace {

struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;

std::string to_hex(const unsigned char* digest, unsigned int size) {
  static const char kHex[] = "0123456789abcdef";
  std::string out(size * 2, '0');
  for (unsigned int i = 0; i < size; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  MdCtx ctx(EVP_MD_CTX_new());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1) {
    throw core::Error("OpenSSL SHA-256 failed");
  }
  return to_hex(digest, size);
}

std::string file_sha256_hex(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file)
    throw core::IoError(core::SourceLocation(path),
                        std::string("cannot open: ") + std::strerror(errno));
  MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    throw core::Error("OpenSSL SHA-256 failed");
  }
  std::vector<char> buffer(1 << 20);
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
    EVP_DigestUpdate(ctx.get(), buffer.data(), n);
  }
  if (std::ferror(file.get())) throw core::IoError(core::SourceLocation(path), "read error");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &size);
  return to_hex(digest, size);
}

std::string read_whole_file(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file)
    throw core::IoError(core::SourceLocation(path),
                        std::string("cannot open: ") + std::strerror(errno));
  std::string out;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) out.append(buffer, n);
  if (std::ferror(file.get())) throw core::IoError(core::SourceLocation(path), "read error");
  return out;
}

}  // namespace assay::models
