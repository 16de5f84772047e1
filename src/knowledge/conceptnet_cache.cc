#include "knowledge/conceptnet_cache.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/mapped_file.h"
#include "knowledge/conceptnet_dump_reader.h"

namespace assay::knowledge {
namespace {

static_assert(std::endian::native == std::endian::little, "the cache layout is little-endian");

constexpr char kMagic[8] = {'A', 'S', 'S', 'A', 'Y', 'C', 'N', '\0'};
constexpr std::uint64_t kHeaderSize = 64;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_size;
  std::uint32_t n_nodes;
  std::uint32_t n_edges;
  std::uint64_t string_bytes;
  std::uint64_t source_size;
  std::int64_t source_mtime;
  std::uint32_t crc;
  std::uint32_t padding;
  std::uint64_t reserved;
};
static_assert(sizeof(Header) == kHeaderSize);

std::uint64_t padded(std::uint64_t n) {
  return (n + 3) / 4 * 4;
}

[[noreturn]] void corrupt(const std::string& path, std::uint64_t offset, const std::string& what) {
  throw core::ParseError(core::SourceLocation(path, 0, 0, offset),
                         "invalid ConceptNet cache: " + what + " (delete the file to rebuild it)");
}

std::uint32_t crc_of(const char* data, std::uint64_t size) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (size > 0) {
    const uInt chunk = static_cast<uInt>(std::min<std::uint64_t>(size, 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data), chunk);
    data += chunk;
    size -= chunk;
  }
  return static_cast<std::uint32_t>(crc);
}

bool edge_less(const ConceptNetEdge& a, const ConceptNetEdge& b) {
  if (a.relation != b.relation) return a.relation < b.relation;
  if (a.source != b.source) return a.source < b.source;
  return a.target < b.target;
}

}  // namespace

void write_conceptnet_cache(const std::string& path, const ConceptNetData& d) {
  const std::uint64_t n_nodes = d.n_nodes();
  std::string payload;
  payload.reserve(4 * (n_nodes + 1) + padded(d.strings.size()) + 32 * d.edges.size());
  auto put = [&](const void* p, std::size_t n) { payload.append(static_cast<const char*>(p), n); };
  put(d.string_offsets.data(), 4 * d.string_offsets.size());
  put(d.strings.data(), d.strings.size());
  payload.append(padded(d.strings.size()) - d.strings.size(), '\0');
  put(d.edges.data(), sizeof(ConceptNetEdge) * d.edges.size());
  put(d.by_target.data(), sizeof(ConceptNetEdge) * d.by_target.size());

  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kConceptNetCacheVersion;
  h.header_size = static_cast<std::uint32_t>(kHeaderSize);
  h.n_nodes = static_cast<std::uint32_t>(n_nodes);
  h.n_edges = static_cast<std::uint32_t>(d.edges.size());
  h.string_bytes = d.strings.size();
  h.source_size = d.source_size;
  h.source_mtime = d.source_mtime;
  h.crc = crc_of(payload.data(), payload.size());

  core::AtomicFileWriter out(path);
  out.stream().write(reinterpret_cast<const char*>(&h), sizeof h);
  out.stream().write(payload.data(), static_cast<std::streamsize>(payload.size()));
  out.commit();
}

ConceptNetData ConceptNetData::from_tables(ConceptNetTables tables, std::uint64_t source_size,
                                           std::int64_t source_mtime) {
  auto owned = std::make_shared<ConceptNetTables>(std::move(tables));
  ConceptNetData d;
  d.string_offsets = owned->string_offsets;
  d.strings = owned->strings;
  d.edges = owned->edges;
  d.by_target = owned->by_target;
  d.source_size = source_size;
  d.source_mtime = source_mtime;
  d.storage = std::move(owned);
  return d;
}

ConceptNetData read_conceptnet_cache(const std::string& path) {
  const core::MappedFile file = core::MappedFile::open(path, {.populate = true});
  const std::uint64_t file_size = file.size();
  if (file_size < kHeaderSize) corrupt(path, file_size, "file is shorter than the 64-byte header");
  std::shared_ptr<const void> storage = file.storage();
  const char* base = file.data();

  Header h;
  std::memcpy(&h, base, sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    corrupt(path, 0, "bad magic, not an assay ConceptNet cache");
  if (h.version != kConceptNetCacheVersion) {
    corrupt(path, 8,
            "version " + std::to_string(h.version) + ", expected " +
                std::to_string(kConceptNetCacheVersion));
  }
  if (h.header_size != kHeaderSize)
    corrupt(path, 12, "header size " + std::to_string(h.header_size));
  if (h.n_nodes == std::numeric_limits<std::uint32_t>::max())
    corrupt(path, 16, "node count out of range");
  // Expected size in 64-bit arithmetic: the counts are 32-bit and string_bytes is bounded by
  // the file size first, so no sum below can overflow.
  if (h.string_bytes > file_size) corrupt(path, 24, "string section larger than the file");
  const std::uint64_t offsets_bytes = 4ull * (h.n_nodes + 1ull);
  const std::uint64_t edges_bytes = 16ull * h.n_edges;
  const std::uint64_t expected =
      kHeaderSize + offsets_bytes + padded(h.string_bytes) + 2 * edges_bytes;
  if (expected != file_size) {
    corrupt(path, std::min(expected, file_size),
            "file has " + std::to_string(file_size) + " bytes, the header describes " +
                std::to_string(expected) + (file_size < expected ? " (truncated)" : ""));
  }
  if (crc_of(base + kHeaderSize, file_size - kHeaderSize) != h.crc)
    corrupt(path, kHeaderSize, "CRC-32 mismatch");

  // Sizes match the file and every section starts 4-byte aligned in a page-aligned mapping.
  const std::uint64_t offsets_at = kHeaderSize;
  const std::uint64_t strings_at = offsets_at + offsets_bytes;
  const std::uint64_t edges_at = strings_at + padded(h.string_bytes);
  const std::uint64_t by_target_at = edges_at + edges_bytes;
  ConceptNetData d;
  d.source_size = h.source_size;
  d.source_mtime = h.source_mtime;
  d.string_offsets = {reinterpret_cast<const std::uint32_t*>(base + offsets_at), h.n_nodes + 1ull};
  d.strings = std::string_view(base + strings_at, h.string_bytes);
  d.edges = {reinterpret_cast<const ConceptNetEdge*>(base + edges_at), h.n_edges};
  d.by_target = {reinterpret_cast<const ConceptNetEdge*>(base + by_target_at), h.n_edges};
  d.storage = std::move(storage);

  if (d.string_offsets[0] != 0 || d.string_offsets.back() != h.string_bytes) {
    corrupt(path, offsets_at, "string offsets do not span the string section");
  }
  std::string_view prev;
  for (std::uint32_t i = 0; i < h.n_nodes; ++i) {
    const std::uint32_t a = d.string_offsets[i], b = d.string_offsets[i + 1];
    if (b <= a || b > h.string_bytes)
      corrupt(path, offsets_at + 4ull * (i + 1), "empty term or bad string offset");
    const std::string_view cur = d.strings.substr(a, b - a);
    if (i > 0 && !(prev < cur)) corrupt(path, strings_at + a, "terms not strictly sorted");
    prev = cur;
  }
  auto check_edges = [&](std::span<const ConceptNetEdge> v, std::uint64_t at, bool by_target) {
    for (std::uint32_t i = 0; i < h.n_edges; ++i) {
      const ConceptNetEdge& e = v[i];
      const std::uint64_t where = at + 16ull * i;
      if (e.source >= h.n_nodes || e.target >= h.n_nodes)
        corrupt(path, where, "edge node index out of range");
      if (e.relation >= kConceptNetRelationCount) corrupt(path, where, "unknown relation code");
      if (!std::isfinite(e.weight) || e.weight < 0) corrupt(path, where, "invalid edge weight");
      if (i == 0) continue;
      const ConceptNetEdge& p = v[i - 1];
      const bool ordered = by_target ? std::tie(p.relation, p.target, p.source) <
                                           std::tie(e.relation, e.target, e.source)
                                     : edge_less(p, e);
      if (!ordered) corrupt(path, where, "edges not sorted or duplicated");
    }
  };
  check_edges(d.edges, edges_at, false);
  check_edges(d.by_target, by_target_at, true);
  return d;
}

}  // namespace assay::knowledge
