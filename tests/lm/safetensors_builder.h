// Test helper: writes safetensors files byte by byte, so tests can make valid files and
// every kind of broken one (the header text is given verbatim when a test needs it to lie).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace assay::lm::testing {

struct RawTensor {
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::string bytes;
};

inline std::string le64(std::uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return s;
}

// Header length + header text + data, with no validation at all.
inline std::string raw_file(const std::string& header, const std::string& data) {
  return le64(header.size()) + header + data;
}

// A well-formed file holding `tensors` in name order.
inline std::string build_file(const std::map<std::string, RawTensor>& tensors) {
  nlohmann::json header = nlohmann::json::object();
  std::string data;
  for (const auto& [name, t] : tensors) {
    header[name] = {{"dtype", t.dtype}, {"shape", t.shape},
                    {"data_offsets", {data.size(), data.size() + t.bytes.size()}}};
    data += t.bytes;
  }
  return raw_file(header.dump(), data);
}

inline std::string f32_bytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

}  // namespace assay::lm::testing
