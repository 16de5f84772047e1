// SafetensorsFile: a read-only memory map of a Hugging Face `.safetensors` file.
//
// Layout: an 8-byte little-endian header length N, N bytes of JSON mapping tensor names to
// {"dtype", "shape", "data_offsets": [begin, end)} (offsets relative to the byte buffer that
// follows the header), optionally "__metadata__" (string → string), then the byte buffer.
//
// Everything is validated in the constructor, before any tensor byte is touched: the header
// length against the file size, the JSON itself, every dtype, every shape (non-negative, the
// element count times the dtype size computed without overflow and equal to end − begin),
// every offset pair against the buffer size, duplicate names and overlapping byte ranges.
// A file that passes cannot cause an out-of-bounds read through this class. All failures
// are core::ParseError naming the path and the byte offset or tensor; open/mmap failures are
// core::IoError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/mapped_file.h"

namespace assay::lm {

enum class DType { kF64, kF32, kF16, kBF16, kI64, kI32, kI16, kI8, kU8, kBool };

// Name as written in the header ("F32", ...), and the element size in bytes.
const char* to_string(DType dtype);
std::size_t dtype_size(DType dtype);

struct TensorInfo {
  std::string name;
  DType dtype = DType::kF32;
  std::vector<std::uint64_t> shape;
  std::uint64_t begin = 0;  // byte offsets relative to the data buffer
  std::uint64_t end = 0;
  std::uint64_t n_elements() const;
};

class SafetensorsFile {
 public:
  // Maps and validates `path`. Throws IoError / ParseError as described above.
  explicit SafetensorsFile(std::string path);
  ~SafetensorsFile();
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;

  const std::string& path() const { return path_; }
  bool contains(const std::string& name) const { return tensors_.count(name) != 0; }
  // nullptr when absent.
  const TensorInfo* find(const std::string& name) const;
  const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }

  // The raw bytes of a tensor (validated to lie inside the mapping).
  std::span<const std::byte> bytes(const TensorInfo& info) const;
  // The tensor converted to float32 (F32, F16, BF16 and F64 are accepted; other dtypes throw
  // ParseError naming the tensor).
  std::vector<float> to_f32(const TensorInfo& info) const;

 private:
  void parse_header();

  std::string path_;
  core::MappedFile file_;
  const std::byte* map_ = nullptr;
  std::size_t map_size_ = 0;
  std::uint64_t data_begin_ = 0;  // absolute offset of the byte buffer
  std::map<std::string, TensorInfo> tensors_;
  std::map<std::string, std::string> metadata_;
};

// Half-precision conversions (exact; used by to_f32 and by tests that write F16/BF16 files).
float f16_to_f32(std::uint16_t h);
float bf16_to_f32(std::uint16_t b);

}  // namespace assay::lm
