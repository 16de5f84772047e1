#include "knowledge/conceptnet_dump_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/byte_source.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/number_parse.h"

namespace assay::knowledge {
namespace {

constexpr std::array<std::string_view, kConceptNetRelationCount> kRelationNames = {
    "IsA", "Antonym", "FormOf", "DerivedFrom", "Synonym"};

[[noreturn]] void fail(const std::string& path, std::uint64_t line, const std::string& message) {
  throw core::ParseError(core::SourceLocation(path, line), message);
}

// "/c/en/ice_cream/n/wikt/en_1" -> "ice_cream"; empty view when the node is not English.
std::string_view english_term(std::string_view uri, const std::string& path, std::uint64_t line,
                              const char* which) {
  // Other languages (/c/fr/...) and ExternalURL targets (http://...) are simply not English.
  if (uri.empty() || uri.find(' ') != std::string_view::npos) {
    fail(path, line,
         std::string("expected a node URI as the ") + which + ", got '" +
             std::string(uri.substr(0, 40)) + "'");
  }
  if (uri.substr(0, std::min<std::size_t>(uri.size(), 6)) != "/c/en/") return {};
  std::string_view term = uri.substr(6);
  term = term.substr(0, term.find('/'));
  if (term.empty()) fail(path, line, std::string("empty English term in the ") + which + " URI");
  return term;
}

// The number after "weight": in the metadata JSON, without a full JSON parse (the dump has
// 34 million lines; only this field is needed).
float metadata_weight(std::string_view json, const std::string& path, std::uint64_t line) {
  if (json.empty() || json.front() != '{' || json.back() != '}') {
    fail(path, line, "expected a JSON object in the fifth field");
  }
  const auto key = json.find("\"weight\":");
  if (key == std::string_view::npos) fail(path, line, "the metadata JSON has no \"weight\"");
  std::size_t begin = key + 9;
  while (begin < json.size() && json[begin] == ' ') ++begin;
  std::size_t end = begin;
  while (end < json.size() && json[end] != ',' && json[end] != '}' && json[end] != ' ') ++end;
  const std::string_view text = json.substr(begin, end - begin);
  const std::optional<double> parsed = core::parse_double(text);
  if (!parsed)
    fail(path, line, "expected a number after \"weight\":, got '" + std::string(text) + "'");
  const double w = *parsed;
  // Stored as a float: a larger number would become infinity.
  if (!std::isfinite(w) || w < 0 || w > std::numeric_limits<float>::max()) {
    fail(path, line,
         "weight must be a finite non-negative number of at most 3.4e38, got '" +
             std::string(text) + "'");
  }
  return static_cast<float>(w);
}

void read_lines(core::LineReader& reader, const std::string& path,
                const std::function<void(const ConceptNetAssertion&)>& on_assertion,
                ConceptNetDumpStats& stats) {
  std::string_view line;
  ConceptNetAssertion a;
  for (;;) {
    try {
      if (!reader.next(line)) break;
    } catch (const core::ParseError& e) {
      // Errors of the text layer (invalid UTF-8, binary data) carry their line and column;
      // corrupt gzip data is found while reading the next line.
      if (e.location() && e.location()->line > 0) throw;
      throw core::ParseError(core::SourceLocation(path, reader.line_number() + 1), e.detail());
    }
    ++stats.n_lines;
    if (line.empty()) continue;
    if (parse_conceptnet_line(line, path, reader.line_number(), &a, &stats)) on_assertion(a);
  }
}

}  // namespace

std::string_view to_string(ConceptNetRelation r) {
  return kRelationNames.at(static_cast<std::size_t>(r));
}

bool parse_conceptnet_line(std::string_view line, const std::string& path,
                           std::uint64_t line_number, ConceptNetAssertion* out,
                           ConceptNetDumpStats* stats) {
  std::array<std::string_view, 5> f;
  std::size_t n = 0, begin = 0;
  for (;;) {
    const auto tab = line.find('\t', begin);
    if (n < 5)
      f[n] =
          line.substr(begin, tab == std::string_view::npos ? std::string_view::npos : tab - begin);
    ++n;
    if (tab == std::string_view::npos) break;
    begin = tab + 1;
  }
  if (n != 5) {
    fail(path, line_number,
         "expected 5 tab-separated fields (URI, relation, start, end, JSON), got " +
             std::to_string(n));
  }
  if (f[1].size() < 4 || f[1].substr(0, 3) != "/r/") {
    fail(path, line_number,
         "expected a /r/<Relation> URI in the second field, got '" +
             std::string(f[1].substr(0, 40)) + "'");
  }
  const std::string_view start = english_term(f[2], path, line_number, "start");
  const std::string_view end = english_term(f[3], path, line_number, "end");
  const float weight = metadata_weight(f[4], path, line_number);
  if (start.empty() || end.empty()) {
    ++stats->n_not_english;
    return false;
  }
  const std::string_view rel = f[1].substr(3);
  for (std::uint32_t r = 0; r < kConceptNetRelationCount; ++r) {
    if (rel == kRelationNames[r]) {
      out->relation = static_cast<ConceptNetRelation>(r);
      out->start = start;
      out->end = end;
      out->weight = weight;
      out->line = line_number;
      ++stats->n_kept;
      return true;
    }
  }
  ++stats->n_other_relation;
  return false;
}

ConceptNetDumpStats read_conceptnet_dump(
    const std::string& path, const std::function<void(const ConceptNetAssertion&)>& on_assertion) {
  ConceptNetDumpStats stats;
  // Plain or gzip-compressed (".gz" suffix or gzip magic), inflated as it is read; corrupt
  // or truncated compressed data is reported at the line where it was found.
  core::LineReader reader(core::open_maybe_gzipped(path));
  read_lines(reader, path, on_assertion, stats);
  if (stats.n_lines == 0) {
    throw core::ParseError(core::SourceLocation(path),
                           "empty file, expected ConceptNet assertions");
  }
  return stats;
}

}  // namespace assay::knowledge
