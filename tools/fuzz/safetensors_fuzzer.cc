// libFuzzer target: any byte string as a .safetensors file. The reader must either reject it
// with core::Error or accept it, after which every tensor is read and converted — ASan turns
// any out-of-bounds read into a crash. Run: tools/fuzz/run.sh safetensors
#include <cstdint>
#include <string>

#include "core/error.h"
#include "fuzz_input.h"
#include "lm/safetensors_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = assay::fuzz::write_input(data, size, "model.safetensors");
  try {
    assay::lm::SafetensorsFile file(path);
    double sum = 0;
    for (const auto& [name, info] : file.tensors()) {
      const auto bytes = file.bytes(info);
      for (std::byte b : bytes) sum += std::to_integer<int>(b);
      try {
        for (float v : file.to_f32(info)) sum += v;
      } catch (const assay::core::ParseError&) {
        // integer dtypes are not convertible: fine
      }
    }
    assay::fuzz::consume(sum);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
