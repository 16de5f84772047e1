#include "core/latin1_source.h"

#include <cstring>
#include <string>

#include "core/error.h"

namespace assay::core {
namespace {

class Latin1Source final : public ByteSource {
 public:
  explicit Latin1Source(std::unique_ptr<ByteSource> inner)
      : ByteSource(inner->name()), inner_(std::move(inner)) {}

  std::size_t read(char* buffer, std::size_t n) override {
    while (pending_.size() - begin_ == 0) {
      if (eof_) return 0;
      raw_.resize(32768);
      std::size_t got = inner_->read(raw_.data(), raw_.size());
      if (got == 0) {
        eof_ = true;
        return 0;
      }
      std::size_t skip = 0;
      if (first_) {
        first_ = false;
        while (got < 3) {  // a pipe may deliver fewer bytes than the checks need
          raw_.resize(got + 32768);
          const std::size_t more = inner_->read(raw_.data() + got, 32768);
          if (more == 0) break;
          got += more;
        }
        if (inner_->raw() && got >= 2 && static_cast<unsigned char>(raw_[0]) == 0x1f &&
            static_cast<unsigned char>(raw_[1]) == 0x8b) {
          throw ParseError(SourceLocation{name(), 1, 0, std::nullopt},
                           "this is gzip-compressed data, expected plain text; decompress it "
                           "first (gunzip)");
        }
        if (got >= 3 && std::memcmp(raw_.data(), "\xEF\xBB\xBF", 3) == 0) skip = 3;
      }
      pending_.clear();
      begin_ = 0;
      for (std::size_t i = skip; i < got; ++i) {
        const auto c = static_cast<unsigned char>(raw_[i]);
        if (c < 0x80) {
          pending_.push_back(static_cast<char>(c));
        } else {
          pending_.push_back(static_cast<char>(0xC0 | (c >> 6)));
          pending_.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
      }
    }
    const std::size_t k = std::min(n, pending_.size() - begin_);
    std::memcpy(buffer, pending_.data() + begin_, k);
    begin_ += k;
    return k;
  }

  // Decoded bytes are not the file's own; LineReader must not look for gzip magic in them.
  bool raw() const override { return false; }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::string raw_, pending_;
  std::size_t begin_ = 0;
  bool first_ = true;
  bool eof_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> latin1_source(std::unique_ptr<ByteSource> inner) {
  return std::make_unique<Latin1Source>(std::move(inner));
}

}  // namespace assay::core
