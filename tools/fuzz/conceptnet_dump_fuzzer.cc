// libFuzzer target: the ConceptNet assertions dump reader (knowledge::read_conceptnet_dump),
// plain text or gzip (chosen by the gzip magic, as for a real dump, so the zlib path on its
// helper thread is fuzzed too). Kept assertions must be English terms with a finite weight and
// a line within the file. Run: tools/fuzz/run.sh conceptnet_dump
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "fuzz_input.h"
#include "knowledge/conceptnet_dump_reader.h"

namespace kn = assay::knowledge;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = assay::fuzz::write_input(data, size, "assertions.csv");
  try {
    std::uint64_t total = 0, kept = 0;
    const kn::ConceptNetDumpStats stats =
        kn::read_conceptnet_dump(path, [&](const kn::ConceptNetAssertion& a) {
          if (a.start.empty() || a.end.empty()) std::abort();
          if (!std::isfinite(a.weight)) std::abort();
          if (static_cast<std::uint32_t>(a.relation) >= kn::kConceptNetRelationCount) std::abort();
          total += a.start.size() + a.end.size() + a.line;
          ++kept;
        });
    if (stats.n_kept != kept || stats.n_kept > stats.n_lines) std::abort();
    assay::fuzz::consume(total);
  } catch (const assay::core::Error& e) {
    assay::fuzz::rejected(e);
  }
  return 0;
}
