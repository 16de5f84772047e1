// ConceptNetDumpReader streams the ConceptNet 5 assertions dump (conceptnet-assertions-5.x.csv
// or .csv.gz: edge URI \t relation \t start \t end \t JSON metadata) and yields the English
// assertions of the relations the knowledge graph keeps. Gzip input is inflated with zlib on
// a helper thread and read through core::LineReader like plain text, so line numbers are the
// same in both. Node URIs are folded to their term: /c/en/ice_cream/n/wikt/en_1 -> ice_cream.
//
// Errors: ParseError "<dump>:<line>: ..." for a malformed line (field count, relation or node
// URI shape, missing or non-numeric "weight"), ParseError naming the file for corrupt or
// truncated gzip data, IoError when the file cannot be opened. Assertions that are not
// English-English or use another relation are counted, not reported.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace assay::knowledge {

enum class ConceptNetRelation : std::uint8_t {
  kIsA = 0,
  kAntonym = 1,
  kFormOf = 2,
  kDerivedFrom = 3,
  kSynonym = 4,
};
inline constexpr std::uint32_t kConceptNetRelationCount = 5;
std::string_view to_string(ConceptNetRelation r);

struct ConceptNetAssertion {
  ConceptNetRelation relation = ConceptNetRelation::kIsA;
  std::string_view start;  // folded English term, e.g. "ice_cream"; valid during the callback
  std::string_view end;
  float weight = 1.0f;
  std::uint64_t line = 0;
};

struct ConceptNetDumpStats {
  std::uint64_t n_lines = 0;
  std::uint64_t n_kept = 0;
  std::uint64_t n_not_english = 0;    // start or end outside /c/en/
  std::uint64_t n_other_relation = 0; // English-English, relation not kept
};

// Reads `path` (".gz" suffix or gzip magic → zlib) and calls `on_assertion` for every kept
// assertion, in file order. Returns the counts.
ConceptNetDumpStats read_conceptnet_dump(
    const std::string& path, const std::function<void(const ConceptNetAssertion&)>& on_assertion);

// Parses one dump line (exposed for tests). Returns false for a line that is skipped and
// counts it in `stats`; throws ParseError at (path, line) for a malformed line.
bool parse_conceptnet_line(std::string_view line, const std::string& path, std::uint64_t line_number,
                           ConceptNetAssertion* out, ConceptNetDumpStats* stats);

}  // namespace assay::knowledge
