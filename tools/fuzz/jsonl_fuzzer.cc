// libFuzzer target: core::JsonlReader (JSON lines), plus require_key on every object read.
// Run: tools/fuzz/run.sh jsonl
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "core/jsonl.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = assay::fuzz::write_input(data, size, "input.jsonl");
  try {
    assay::core::JsonlReader reader(path);
    nlohmann::json value;
    std::size_t total = 0;
    while (reader.next(value)) {
      total += value.size() + reader.line_number();
      if (value.is_object()) {
        try {
          total += assay::core::require_key(value, "text", reader.location()).size();
        } catch (const assay::core::ParseError&) {
        }
      }
    }
    assay::fuzz::consume(total);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
