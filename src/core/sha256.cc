#include "core/sha256.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/error.h"

namespace assay::core {
namespace {

struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

MdCtx start() {
  MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    throw Error("OpenSSL SHA-256 failed");
  }
  return ctx;
}

void update(EVP_MD_CTX* ctx, const void* data, std::size_t n) {
  if (EVP_DigestUpdate(ctx, data, n) != 1) throw Error("OpenSSL SHA-256 failed");
}

std::string finish_hex(EVP_MD_CTX* ctx) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx, digest, &size) != 1) throw Error("OpenSSL SHA-256 failed");
  static const char kHex[] = "0123456789abcdef";
  std::string out(size * 2, '0');
  for (unsigned int i = 0; i < size; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  const MdCtx ctx = start();
  update(ctx.get(), bytes.data(), bytes.size());
  return finish_hex(ctx.get());
}

std::string file_sha256_hex(const std::string& path) {
  const std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    throw IoError(SourceLocation(path),
                  std::string("cannot open for reading: ") + std::strerror(errno));
  }
  const MdCtx ctx = start();
  std::vector<char> buffer(std::size_t{1} << 20);
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
    update(ctx.get(), buffer.data(), n);
  }
  if (std::ferror(file.get())) throw IoError(SourceLocation(path), "read error");
  return finish_hex(ctx.get());
}

}  // namespace assay::core
