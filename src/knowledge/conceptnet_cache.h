// The compact binary cache of the English ConceptNet graph, so the 34-million-line dump is
// parsed once. Layout (little-endian, every section 4-byte aligned):
//   header (64 bytes): magic "ASSAYCN\0", u32 version, u32 header size, u32 n_nodes,
//     u32 n_edges, u64 string bytes, u64 source size, i64 source mtime (ns), u32 CRC-32 of
//     everything after the header, u32 zero padding, 8 reserved zero bytes
//   u32 string_offsets[n_nodes + 1]   node i's term is strings[off[i], off[i+1])
//   char strings[string bytes]        terms sorted byte-wise, strictly increasing; zero-padded
//                                     to a multiple of 4
//   Edge edges[n_edges]               {u32 source, u32 target, f32 weight, u32 relation},
//                                     sorted by (relation, source, target), no duplicates
//   Edge by_target[n_edges]           the same edges sorted by (relation, target, source)
// The reverse index is a second sorted copy rather than a permutation so that validation and
// lookups read memory in order (a permutation made the 1-second reload target miss).
// read_conceptnet_cache checks the header, the exact file size (with overflow checks) and the
// CRC before it allocates, then every offset, index, relation and ordering, so a truncated or
// corrupted cache is rejected with a ParseError naming the file and byte offset instead of
// being read out of bounds. Written atomically (core::AtomicFileWriter).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <string>
#include <vector>

namespace assay::knowledge {

inline constexpr std::uint32_t kConceptNetCacheVersion = 1;

struct ConceptNetEdge {
  std::uint32_t source = 0;
  std::uint32_t target = 0;
  float weight = 0.0f;
  std::uint32_t relation = 0;  // ConceptNetRelation
};
static_assert(sizeof(ConceptNetEdge) == 16);

// The tables as the builder fills them.
struct ConceptNetTables {
  std::vector<std::uint32_t> string_offsets{0};  // n_nodes + 1 entries
  std::string strings;
  std::vector<ConceptNetEdge> edges;
  std::vector<ConceptNetEdge> by_target;
};

// Read-only views of the tables, kept alive by `storage`: the builder's vectors, or a
// read-only memory mapping of the cache file (a reload copies nothing).
struct ConceptNetData {
  std::span<const std::uint32_t> string_offsets;
  std::string_view strings;
  std::span<const ConceptNetEdge> edges;
  std::span<const ConceptNetEdge> by_target;
  std::uint64_t source_size = 0;  // of the dump the cache was built from
  std::int64_t source_mtime = 0;
  std::shared_ptr<const void> storage;

  std::uint32_t n_nodes() const {
    return string_offsets.empty() ? 0 : static_cast<std::uint32_t>(string_offsets.size() - 1);
  }
  static ConceptNetData from_tables(ConceptNetTables tables, std::uint64_t source_size, std::int64_t source_mtime);
};

void write_conceptnet_cache(const std::string& path, const ConceptNetData& data);
ConceptNetData read_conceptnet_cache(const std::string& path);

}  // namespace assay::knowledge
