#include "text/lingua_tables.h"

#include <filesystem>
#include <limits>
#include <utility>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/number_parse.h"

namespace assay::text {
namespace {

std::string missing_message(const std::string& path) {
  return "Lingua::EN::Tagger table " + path + " is not installed; install the Debian package " +
         LinguaTables::kDebianPackage + " (apt-get install " + LinguaTables::kDebianPackage + ")";
}

void require_file(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) {
    throw core::MissingResourceError(missing_message(path));
  }
}

struct FlowLine {
  std::string_view line;
  std::string_view key;
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
};

bool is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}

// The module's pattern m/^"?([^\{"]+)"?: \{ (.*) \}/ with Perl's greedy backtracking, then
// `split /[:,]\s+/` of the data into tag/value pairs. Returns false when the line does not
// match; throws ParseError when the data does not split into pairs.
bool parse_flow_line(std::string_view s, FlowLine& out, const core::LineReader& reader) {
  out.line = s;
  std::size_t p = (!s.empty() && s[0] == '"') ? 1 : 0;
  std::size_t r = p;
  while (r < s.size() && s[r] != '{' && s[r] != '"') ++r;
  std::size_t data_begin = std::string_view::npos;
  for (std::size_t q = r; q > p && data_begin == std::string_view::npos; --q) {
    // The key is s[p, q); "? is greedy, so the quoted variant is tried first.
    for (const std::size_t at : {q + (q < s.size() && s[q] == '"' ? 1 : 0), q}) {
      if (s.substr(at, 4) == ": { ") {
        out.key = s.substr(p, q - p);
        data_begin = at + 4;
        break;
      }
    }
  }
  if (data_begin == std::string_view::npos) return false;
  const std::size_t close = s.rfind(" }");
  if (close == std::string_view::npos || close < data_begin) return false;
  for (std::size_t k = close + 2; k < s.size(); ++k) {
    if (!is_ws(s[k])) {
      throw core::ParseError(reader.location(k + 1),
                             "unexpected text after the closing '}' of the mapping");
    }
  }
  const std::string_view data = s.substr(data_begin, close - data_begin);
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (std::size_t k = 0; k < data.size(); ++k) {
    if ((data[k] == ':' || data[k] == ',') && k + 1 < data.size() && is_ws(data[k + 1])) {
      fields.push_back(data.substr(start, k - start));
      std::size_t e = k + 1;
      while (e < data.size() && is_ws(data[e])) ++e;
      start = e;
      k = e - 1;
    }
  }
  fields.push_back(data.substr(start));
  while (!fields.empty() && fields.back().empty()) fields.pop_back();  // Perl split drops them
  if (fields.size() % 2 != 0 || fields.empty()) {
    throw core::ParseError(reader.location(data_begin + 1),
                           "expected 'tag: number' pairs separated by ', ' inside { }");
  }
  out.pairs.clear();
  for (std::size_t k = 0; k < fields.size(); k += 2)
    out.pairs.emplace_back(fields[k], fields[k + 1]);
  return true;
}

// Lines the Perl loader skips on purpose: the YAML document marker and blank lines.
bool is_skippable(std::string_view s) {
  if (s.substr(0, 3) == "---") return true;
  for (char c : s) {
    if (!is_ws(c)) return false;
  }
  return true;
}

template <typename OnLine>
void read_flow_file(const std::string& path, OnLine on_line) {
  require_file(path);
  core::LineReader reader(path);
  std::string_view line;
  FlowLine parsed;
  while (reader.next(line)) {
    if (is_skippable(line)) continue;
    if (!parse_flow_line(line, parsed, reader)) {
      throw core::ParseError(reader.location(),
                             "expected a one-line mapping 'key: { tag: number, ... }'");
    }
    on_line(parsed, reader);
  }
}

double parse_value(std::string_view v, const core::LineReader& reader, std::string_view line) {
  const auto d = core::parse_double(v);
  if (!d || !(*d >= 0)) {
    const std::size_t col = static_cast<std::size_t>(v.data() - line.data()) + 1;
    throw core::ParseError(reader.location(col),
                           "expected a non-negative number, got '" + std::string(v) + "'");
  }
  return *d;
}

}  // namespace

std::optional<TagId> LinguaTables::find_tag(std::string_view name) const {
  const auto it = tag_ids_.find(name);
  if (it == tag_ids_.end()) return std::nullopt;
  return it->second;
}

TagId LinguaTables::intern_tag(std::string_view name, const std::string& where) {
  const auto it = tag_ids_.find(name);
  if (it != tag_ids_.end()) return it->second;
  if (tag_names_.size() > std::numeric_limits<TagId>::max()) {
    throw core::ParseError(where + ": more than 255 distinct tags");
  }
  const auto id = static_cast<TagId>(tag_names_.size());
  tag_names_.emplace_back(name);
  tag_ids_.emplace(std::string(name), id);
  return id;
}

void LinguaTables::load_words(const std::string& path) {
  read_flow_file(path, [&](const FlowLine& f, const core::LineReader& reader) {
    auto& counts = lexicon_[std::string(f.key)];
    for (const auto& [tag, value] : f.pairs) {
      const TagId id = intern_tag(tag, reader.location().to_string());
      const double v = parse_value(value, reader, f.line);
      // A repeated key or tag overrides, as in the Perl hash assignment.
      bool replaced = false;
      for (TagCount& tc : counts) {
        if (tc.tag == id) {
          tc.count = v;
          replaced = true;
        }
      }
      if (!replaced) counts.push_back(TagCount{id, v});
    }
  });
}

void LinguaTables::load_tags(const std::string& path) {
  struct Row {
    TagId from;
    std::vector<std::pair<TagId, double>> to;
  };
  std::vector<Row> rows;
  read_flow_file(path, [&](const FlowLine& f, const core::LineReader& reader) {
    Row row{intern_tag(f.key, reader.location().to_string()), {}};
    for (const auto& [tag, value] : f.pairs) {
      row.to.emplace_back(intern_tag(tag, reader.location().to_string()),
                          parse_value(value, reader, f.line));
    }
    rows.push_back(std::move(row));
  });
  const std::size_t n = n_tags();
  transition_.assign(n * n, 0.0);
  present_.assign(n * n, 0);
  has_row_.assign(n, 0);
  for (const Row& row : rows) {
    has_row_[row.from] = 1;
    for (const auto& [to, p] : row.to) {
      transition_[index(row.from, to)] = p;
      present_[index(row.from, to)] = 1;
    }
  }
}

void LinguaTables::load_abbreviations(const std::string& path) {
  // Tagger.pm's _split_sentences declares `my @PEOPLE = qw/jr mr .../;` and similar lists
  // before `my %ABBR`; those are the words that keep their period.
  require_file(path);
  core::LineReader reader(path);
  std::string_view line;
  bool in_splitter = false;
  while (reader.next(line)) {
    if (line.find("sub _split_sentences") != std::string_view::npos) in_splitter = true;
    if (!in_splitter) continue;
    if (line.find("my %ABBR") != std::string_view::npos) break;
    const std::size_t qw = line.find("= qw/");
    if (line.find("my @") == std::string_view::npos || qw == std::string_view::npos) continue;
    const std::size_t close = line.find('/', qw + 5);
    if (close == std::string_view::npos) {
      throw core::ParseError(reader.location(qw + 1), "unterminated qw/.../ abbreviation list");
    }
    const std::string_view words = line.substr(qw + 5, close - qw - 5);
    std::size_t i = 0;
    while (i < words.size()) {
      while (i < words.size() && words[i] == ' ') ++i;
      std::size_t j = i;
      while (j < words.size() && words[j] != ' ') ++j;
      if (j > i) abbreviations_.emplace(words.substr(i, j - i));
      i = j;
    }
  }
  if (abbreviations_.empty()) {
    throw core::ParseError(core::SourceLocation{path},
                           "no abbreviation lists (my @X = qw/.../;) found in _split_sentences");
  }
}

LinguaTables LinguaTables::load(const std::string& dir) {
  LinguaTables t;
  const std::filesystem::path base(dir);
  // Resolve every path first so a missing package is reported before any parsing.
  const std::string words = (base / "words.yml").string();
  const std::string unknown = (base / "unknown.yml").string();
  const std::string tags = (base / "tags.yml").string();
  const std::string module = (base.parent_path() / "Tagger.pm").string();
  for (const std::string& p : {words, unknown, tags, module}) require_file(p);
  t.load_tags(tags);  // tags.yml first, as the module's install() does
  t.load_words(words);
  t.load_words(unknown);
  t.load_abbreviations(module);
  // Tags met only in the lexicon got ids after the matrix was sized; widen it.
  if (t.has_row_.size() != t.n_tags()) {
    const std::size_t old_n = t.has_row_.size(), n = t.n_tags();
    std::vector<double> tr(n * n, 0.0);
    std::vector<std::uint8_t> pr(n * n, 0);
    for (std::size_t a = 0; a < old_n; ++a) {
      for (std::size_t b = 0; b < old_n; ++b) {
        tr[a * n + b] = t.transition_[a * old_n + b];
        pr[a * n + b] = t.present_[a * old_n + b];
      }
    }
    t.transition_ = std::move(tr);
    t.present_ = std::move(pr);
    t.has_row_.resize(n, 0);
  }
  return t;
}

}  // namespace assay::text
