// MappedFile: a whole regular file mapped read-only, for the binary loaders (safetensors,
// the ConceptNet cache, word2vec binary vectors). Every access goes through a bounds check
// that names the file and byte offset, so a malformed file is rejected before any read
// outside the mapping; the mapping stays alive as long as any copy of the object or of
// storage() does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace assay::core {

struct MapOptions {
  bool populate = false;  // fault every page in now (MAP_POPULATE) for data read at random
};

class MappedFile {
 public:
  // Maps `path`. Throws IoError when it cannot be opened or mapped, or is not a regular file
  // (a directory is named as such). An empty file maps to size() == 0.
  static MappedFile open(const std::string& path, MapOptions options = {});

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }
  const char* data() const { return data_; }

  // data() + offset, after checking that [offset, offset + n) lies inside the file; throws
  // ParseError "<path> at byte <offset>: <what>: needs N bytes, the file ends at M".
  const char* at(std::uint64_t offset, std::uint64_t n, std::string_view what) const;

  // Keeps the mapping alive (for views handed out beyond this object's lifetime).
  std::shared_ptr<const void> storage() const { return storage_; }

 private:
  std::string path_;
  std::uint64_t size_ = 0;
  const char* data_ = nullptr;
  std::shared_ptr<const void> storage_;
};

// Sequential, bounds-checked reads over a MappedFile (or any byte range), tracking the offset
// for messages.
class ByteCursor {
 public:
  ByteCursor(const MappedFile& file, std::uint64_t offset = 0) : file_(&file), offset_(offset) {}

  std::uint64_t offset() const { return offset_; }
  std::uint64_t remaining() const { return offset_ < file_->size() ? file_->size() - offset_ : 0; }
  // Next byte (0..255), or -1 at the end of the file.
  int get() {
    return offset_ < file_->size() ? static_cast<unsigned char>(file_->data()[offset_++]) : -1;
  }
  int peek() const {
    return offset_ < file_->size() ? static_cast<unsigned char>(file_->data()[offset_]) : -1;
  }
  // The next n bytes; throws ParseError naming `what` when the file ends first.
  const char* take(std::uint64_t n, std::string_view what) {
    const char* p = file_->at(offset_, n, what);
    offset_ += n;
    return p;
  }

 private:
  const MappedFile* file_;
  std::uint64_t offset_;
};

}  // namespace assay::core
