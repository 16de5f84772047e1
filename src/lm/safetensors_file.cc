#include "lm/safetensors_file.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/json_depth.h"
#include "core/mapped_file.h"

namespace assay::lm {
namespace {

// The reference implementation (safetensors crate) refuses headers above 100 MB; a larger
// value is a corrupt length field, not a real header.
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;
constexpr std::uint64_t kLengthBytes = 8;

struct DTypeName {
  const char* name;
  DType dtype;
  std::size_t size;
};
constexpr DTypeName kDTypes[] = {
    {"F64", DType::kF64, 8},   {"F32", DType::kF32, 4}, {"F16", DType::kF16, 2},
    {"BF16", DType::kBF16, 2}, {"I64", DType::kI64, 8}, {"I32", DType::kI32, 4},
    {"I16", DType::kI16, 2},   {"I8", DType::kI8, 1},   {"U8", DType::kU8, 1},
    {"BOOL", DType::kBool, 1},
};

std::string shape_string(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// Rejects duplicate keys in any JSON object (nlohmann would silently keep the last one, and a
// duplicated tensor name is exactly the kind of lie a malformed header tells).
class DuplicateKeyGuard {
 public:
  bool operator()(int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if (event == E::object_start) {
      keys_.emplace_back();
    } else if (event == E::object_end) {
      if (!keys_.empty()) keys_.pop_back();
    } else if (event == E::key && !keys_.empty()) {
      const std::string key = parsed.get<std::string>();
      if (!keys_.back().insert(key).second) duplicate_ = key;
      if (!duplicate_.empty()) return false;
    }
    return true;
  }
  std::vector<std::set<std::string>> keys_;
  std::string duplicate_;
};

}  // namespace

const char* to_string(DType dtype) {
  for (const auto& d : kDTypes)
    if (d.dtype == dtype) return d.name;
  return "?";
}

std::size_t dtype_size(DType dtype) {
  for (const auto& d : kDTypes)
    if (d.dtype == dtype) return d.size;
  return 0;
}

std::uint64_t TensorInfo::n_elements() const {
  std::uint64_t n = 1;
  for (auto d : shape) n *= d;  // validated not to overflow when the file was opened
  return n;
}

float f16_to_f32(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1Fu;
  std::uint32_t mant = h & 0x3FFu;
  std::uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);  // inf / nan
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal half: normalise
    exp = 113;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((mant & 0x3FFu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

float bf16_to_f32(std::uint16_t b) {
  const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

SafetensorsFile::SafetensorsFile(std::string path)
    : path_(std::move(path)), file_(core::MappedFile::open(path_)) {
  map_ = reinterpret_cast<const std::byte*>(file_.data());
  map_size_ = static_cast<std::size_t>(file_.size());
  if (map_size_ < kLengthBytes) {
    throw core::ParseError(core::SourceLocation(path_, 0, 0, 0),
                           "truncated safetensors file: " + std::to_string(map_size_) +
                               " bytes, expected at least 8 (the header length)");
  }
  parse_header();
}

SafetensorsFile::~SafetensorsFile() = default;

void SafetensorsFile::parse_header() {
  std::uint64_t n_header = 0;
  for (int i = 7; i >= 0; --i) n_header = (n_header << 8) | std::to_integer<std::uint64_t>(map_[i]);
  const std::uint64_t file_size = map_size_;
  auto fail = [&](std::uint64_t offset, const std::string& msg) -> core::ParseError {
    return core::ParseError(core::SourceLocation(path_, 0, 0, offset), msg);
  };
  if (n_header > kMaxHeaderBytes) {
    throw fail(0, "header length " + std::to_string(n_header) +
                      " exceeds the 100000000-byte limit (not a safetensors file, or corrupt;"
                      " a PyTorch .bin/zip file must be converted to safetensors first)");
  }
  if (n_header > file_size - kLengthBytes) {
    throw fail(0, "header length " + std::to_string(n_header) + " runs past the end of the " +
                      std::to_string(file_size) + "-byte file (truncated?)");
  }
  data_begin_ = kLengthBytes + n_header;
  const std::uint64_t data_size = file_size - data_begin_;
  const char* text = reinterpret_cast<const char*>(map_ + kLengthBytes);
  const std::string_view header(text, n_header);
  if (header.empty() || header.front() != '{') {
    throw fail(kLengthBytes, "header does not start with '{' (expected a JSON object)");
  }
  if (core::json_nests_deeper(header)) {
    throw fail(kLengthBytes, "the JSON header " + core::json_too_deep_reason());
  }
  DuplicateKeyGuard guard;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(header.begin(), header.end(), std::ref(guard));
  } catch (const nlohmann::json::parse_error& e) {
    const std::uint64_t at = kLengthBytes + (e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    const auto colon = what.find("] ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw fail(at, "malformed JSON header: " + what);
  } catch (const nlohmann::json::exception& e) {  // e.g. out_of_range: a number too large
    throw fail(kLengthBytes, std::string("malformed JSON header: ") + e.what());
  }
  if (!guard.duplicate_.empty()) {
    throw fail(kLengthBytes, "duplicate key '" + guard.duplicate_ + "' in the header");
  }
  if (!j.is_object()) throw fail(kLengthBytes, "header is not a JSON object");

  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& name = it.key();
    const auto& v = it.value();
    const std::string where = "tensor '" + name + "': ";
    if (name == "__metadata__") {
      if (!v.is_object()) throw fail(kLengthBytes, "__metadata__ is not an object");
      for (auto m = v.begin(); m != v.end(); ++m) {
        if (!m.value().is_string())
          throw fail(kLengthBytes, "__metadata__ value of '" + m.key() + "' is not a string");
        metadata_[m.key()] = m.value().get<std::string>();
      }
      continue;
    }
    if (!v.is_object()) throw fail(kLengthBytes, where + "entry is not an object");
    for (auto k = v.begin(); k != v.end(); ++k) {
      if (k.key() != "dtype" && k.key() != "shape" && k.key() != "data_offsets")
        throw fail(kLengthBytes, where + "unexpected field '" + k.key() + "'");
    }
    TensorInfo info;
    info.name = name;
    const auto dt = v.find("dtype");
    if (dt == v.end() || !dt->is_string())
      throw fail(kLengthBytes, where + "missing string 'dtype'");
    const std::string dts = dt->get<std::string>();
    std::size_t elem = 0;
    for (const auto& d : kDTypes) {
      if (dts == d.name) {
        info.dtype = d.dtype;
        elem = d.size;
      }
    }
    if (elem == 0) throw fail(kLengthBytes, where + "unknown dtype '" + dts + "'");
    const auto sh = v.find("shape");
    if (sh == v.end() || !sh->is_array()) throw fail(kLengthBytes, where + "missing array 'shape'");
    std::uint64_t n_bytes = elem;
    bool overflow = false;
    for (const auto& d : *sh) {
      if (!d.is_number_unsigned() && !(d.is_number_integer() && d.get<std::int64_t>() >= 0))
        throw fail(kLengthBytes, where + "shape entries must be non-negative integers");
      const std::uint64_t dim = d.get<std::uint64_t>();
      info.shape.push_back(dim);
      if (dim != 0 && n_bytes > UINT64_MAX / dim)
        overflow = true;
      else
        n_bytes *= dim;
    }
    if (overflow) {
      throw fail(kLengthBytes,
                 where + "shape " + shape_string(info.shape) + " overflows a 64-bit byte count");
    }
    const auto off = v.find("data_offsets");
    if (off == v.end() || !off->is_array() || off->size() != 2 || !(*off)[0].is_number_unsigned() ||
        !(*off)[1].is_number_unsigned()) {
      throw fail(kLengthBytes, where + "'data_offsets' must be two non-negative integers");
    }
    info.begin = (*off)[0].get<std::uint64_t>();
    info.end = (*off)[1].get<std::uint64_t>();
    if (info.begin > info.end) {
      throw fail(kLengthBytes, where + "data_offsets [" + std::to_string(info.begin) + ", " +
                                   std::to_string(info.end) + ") end before they begin");
    }
    if (info.end > data_size) {
      throw fail(kLengthBytes, where + "data_offsets end " + std::to_string(info.end) +
                                   " lies past the " + std::to_string(data_size) +
                                   "-byte data buffer (file truncated or header wrong)");
    }
    if (info.end - info.begin != n_bytes) {
      throw fail(kLengthBytes, where + "dtype " + dts + " shape " + shape_string(info.shape) +
                                   " needs " + std::to_string(n_bytes) + " bytes, data_offsets [" +
                                   std::to_string(info.begin) + ", " + std::to_string(info.end) +
                                   ") hold " + std::to_string(info.end - info.begin));
    }
    tensors_.emplace(name, std::move(info));
  }

  // Byte ranges must not overlap (zero-byte tensors overlap nothing).
  std::vector<const TensorInfo*> by_offset;
  for (const auto& [name, info] : tensors_)
    if (info.end > info.begin) by_offset.push_back(&info);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const TensorInfo* a, const TensorInfo* b) { return a->begin < b->begin; });
  for (std::size_t i = 1; i < by_offset.size(); ++i) {
    const TensorInfo& a = *by_offset[i - 1];
    const TensorInfo& b = *by_offset[i];
    if (b.begin < a.end) {
      throw fail(kLengthBytes, "tensor '" + b.name + "' data_offsets [" + std::to_string(b.begin) +
                                   ", " + std::to_string(b.end) + ") overlap tensor '" + a.name +
                                   "' [" + std::to_string(a.begin) + ", " + std::to_string(a.end) +
                                   ")");
    }
  }
}

const TensorInfo* SafetensorsFile::find(const std::string& name) const {
  const auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

std::span<const std::byte> SafetensorsFile::bytes(const TensorInfo& info) const {
  // `info` came from this file's validated index; re-check so a foreign TensorInfo is a bug.
  if (info.end > map_size_ - data_begin_ || info.begin > info.end) {
    throw core::ParseError(core::SourceLocation(path_),
                           "tensor '" + info.name + "' is not inside this file");
  }
  return {map_ + data_begin_ + info.begin, static_cast<std::size_t>(info.end - info.begin)};
}

std::vector<float> SafetensorsFile::to_f32(const TensorInfo& info) const {
  const auto raw = bytes(info);
  const std::size_t n = static_cast<std::size_t>(info.n_elements());
  std::vector<float> out(n);
  if (n == 0) return out;  // memcpy with a null pointer is undefined even for 0 bytes
  const std::byte* p = raw.data();
  switch (info.dtype) {
    case DType::kF32:
      std::memcpy(out.data(), p, n * sizeof(float));  // little-endian host, as the format
      break;
    case DType::kF64:
      for (std::size_t i = 0; i < n; ++i) {
        double d;
        std::memcpy(&d, p + 8 * i, 8);
        out[i] = static_cast<float>(d);
      }
      break;
    case DType::kF16:
    case DType::kBF16:
      for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        out[i] = info.dtype == DType::kF16 ? f16_to_f32(h) : bf16_to_f32(h);
      }
      break;
    default:
      throw core::ParseError(core::SourceLocation(path_),
                             "tensor '" + info.name + "' has dtype " + to_string(info.dtype) +
                                 ", expected a floating-point dtype (F32, F16, BF16, F64)");
  }
  return out;
}

}  // namespace assay::lm
