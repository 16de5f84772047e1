// libFuzzer target: the binary ConceptNet cache reader (knowledge::read_conceptnet_cache). A
// cache that is accepted must satisfy the invariants the graph relies on without re-checking:
// offsets within the strings, node ids below n_nodes, relations in range, and both edge
// tables the same size. Run: tools/fuzz/run.sh conceptnet_cache
//
// The reader checks a CRC-32 of the body first, so random mutations rarely get past it: with
// the first input byte odd, the target rewrites the CRC field of the header to match the body
// before reading, which lets the fuzzer explore the structural checks behind it.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "fuzz_input.h"
#include "knowledge/conceptnet_cache.h"
#include "knowledge/conceptnet_dump_reader.h"

namespace kn = assay::knowledge;

namespace {

constexpr std::size_t kHeaderSize = 64;
constexpr std::size_t kCrcOffset = 48;  // after magic, version, size, counts, sizes, mtime

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::vector<std::uint8_t> bytes(data + 1, data + size);
  if ((data[0] & 1) != 0 && bytes.size() >= kHeaderSize) {
    const uLong crc = ::crc32(::crc32(0L, Z_NULL, 0), bytes.data() + kHeaderSize,
                              static_cast<uInt>(bytes.size() - kHeaderSize));
    const std::uint32_t c = static_cast<std::uint32_t>(crc);
    std::memcpy(bytes.data() + kCrcOffset, &c, sizeof c);
  }
  const std::string& path = assay::fuzz::write_input(bytes.data(), bytes.size(), "cache.bin");
  try {
    const kn::ConceptNetData d = kn::read_conceptnet_cache(path);
    const std::uint32_t n = d.n_nodes();
    if (d.edges.size() != d.by_target.size()) std::abort();
    std::uint64_t total = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t a = d.string_offsets[i], b = d.string_offsets[i + 1];
      if (a > b || b > d.strings.size()) std::abort();
      total += d.strings.substr(a, b - a).size();
    }
    for (const auto* table : {&d.edges, &d.by_target}) {
      for (const kn::ConceptNetEdge& e : *table) {
        if (e.source >= n || e.target >= n) std::abort();
        if (e.relation >= kn::kConceptNetRelationCount) std::abort();
        total += e.source + e.target;
      }
    }
    assay::fuzz::consume(total);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
