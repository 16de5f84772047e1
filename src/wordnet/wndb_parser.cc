#include "wordnet/wndb_parser.h"

#include <string>

namespace assay::wordnet::wndb {
namespace {

// Splits off space-separated fields, remembering where each starts for column numbers.
class FieldCursor {
 public:
  FieldCursor(std::string_view line, const core::SourceLocation& where)
      : line_(line), where_(where) {}

  bool at_end() {
    skip_spaces();
    return pos_ >= line_.size();
  }
  std::size_t column() const { return pos_ + 1; }
  std::string_view rest() const { return line_.substr(pos_); }

  std::string_view next(const char* what) {
    skip_spaces();
    if (pos_ >= line_.size()) fail(std::string("expected ") + what + ", got end of line");
    const std::size_t begin = pos_;
    while (pos_ < line_.size() && line_[pos_] != ' ') ++pos_;
    last_column_ = begin + 1;
    return line_.substr(begin, pos_ - begin);
  }

  // Unsigned number in `base` with at most `max_digits` digits.
  std::uint32_t number(const char* what, int base, std::size_t max_digits) {
    const std::string_view f = next(what);
    if (f.empty() || f.size() > max_digits) bad(what, f);
    std::uint32_t v = 0;
    for (char c : f) {
      int d;
      if (c >= '0' && c <= '9') {
        d = c - '0';
      } else if (base == 16 && c >= 'a' && c <= 'f') {
        d = c - 'a' + 10;
      } else if (base == 16 && c >= 'A' && c <= 'F') {
        d = c - 'A' + 10;
      } else {
        bad(what, f);
      }
      v = v * static_cast<std::uint32_t>(base) + static_cast<std::uint32_t>(d);
    }
    return v;
  }

  [[noreturn]] void bad(const char* what, std::string_view got) const {
    throw core::ParseError(core::SourceLocation(where_.path, where_.line, last_column_),
                           std::string("expected ") + what + ", got '" + std::string(got) + "'");
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw core::ParseError(core::SourceLocation(where_.path, where_.line, pos_ + 1), message);
  }

 private:
  void skip_spaces() {
    while (pos_ < line_.size() && line_[pos_] == ' ') ++pos_;
  }

  std::string_view line_;
  const core::SourceLocation& where_;
  std::size_t pos_ = 0;
  std::size_t last_column_ = 1;
};

PartOfSpeech parse_pos(FieldCursor& c, bool* satellite) {
  const std::string_view f = c.next("a part of speech (n, v, a, s or r)");
  if (f.size() == 1) {
    switch (f[0]) {
      case 'n':
        return PartOfSpeech::kNoun;
      case 'v':
        return PartOfSpeech::kVerb;
      case 'a':
        return PartOfSpeech::kAdjective;
      case 's':
        if (satellite) *satellite = true;
        return PartOfSpeech::kAdjective;
      case 'r':
        return PartOfSpeech::kAdverb;
      default:
        break;
    }
  }
  c.bad("a part of speech (n, v, a, s or r)", f);
}

PointerKind pointer_kind(std::string_view symbol) {
  if (symbol == "@") return PointerKind::kHypernym;
  if (symbol == "@i") return PointerKind::kInstanceHypernym;
  if (symbol == "~") return PointerKind::kHyponym;
  if (symbol == "~i") return PointerKind::kInstanceHyponym;
  if (symbol == "!") return PointerKind::kAntonym;
  if (symbol == "+") return PointerKind::kDerivation;
  return PointerKind::kOther;
}

// Adjectives in data.adj may carry a syntactic marker: "galore(ip)".
std::string_view strip_marker(std::string_view word) {
  if (!word.empty() && word.back() == ')') {
    const auto open = word.rfind('(');
    if (open != std::string_view::npos && open > 0) return word.substr(0, open);
  }
  return word;
}

}  // namespace

DataRecord parse_data_line(std::string_view line, const core::SourceLocation& where) {
  FieldCursor c(line, where);
  DataRecord r;
  r.offset = c.number("an 8-digit synset offset", 10, 8);
  r.lex_filenum = static_cast<std::uint8_t>(c.number("a 2-digit lexicographer file number", 10, 2));
  r.pos = parse_pos(c, &r.satellite);
  const std::uint32_t n_words = c.number("a 2-digit hexadecimal word count", 16, 2);
  if (n_words == 0) c.bad("a word count of at least 1", "00");
  r.words.reserve(n_words);
  for (std::uint32_t i = 0; i < n_words; ++i) {
    const std::string_view word = strip_marker(c.next("a word"));
    if (word == "|") c.bad("a word", word);
    c.number("a 1-digit hexadecimal lex_id", 16, 1);
    r.words.push_back({word});
  }
  const std::uint32_t n_pointers = c.number("a 3-digit pointer count", 10, 3);
  r.pointers.reserve(n_pointers);
  for (std::uint32_t i = 0; i < n_pointers; ++i) {
    DataPointer p;
    p.kind = pointer_kind(c.next("a pointer symbol"));
    p.target_offset = c.number("an 8-digit target synset offset", 10, 8);
    p.target_pos = parse_pos(c, nullptr);
    const std::uint32_t st = c.number("a 4-digit hexadecimal source/target field", 16, 4);
    p.source_word = static_cast<std::uint8_t>(st >> 8);
    p.target_word = static_cast<std::uint8_t>(st & 0xff);
    if (p.source_word > n_words) {
      c.bad("a source word number within the synset's word count", std::to_string(p.source_word));
    }
    if (p.kind != PointerKind::kOther) r.pointers.push_back(p);
  }
  if (r.pos == PartOfSpeech::kVerb) {
    const std::uint32_t n_frames = c.number("a 2-digit frame count", 10, 2);
    for (std::uint32_t i = 0; i < n_frames; ++i) {
      const std::string_view plus = c.next("'+' before a verb frame");
      if (plus != "+") c.bad("'+' before a verb frame", plus);
      c.number("a 2-digit frame number", 10, 2);
      c.number("a 2-digit hexadecimal word number", 16, 2);
    }
  }
  if (c.at_end()) c.fail("expected '|' and a gloss, got end of line");
  std::string_view rest = c.rest();
  if (rest[0] != '|')
    c.fail("expected '|' before the gloss, got '" + std::string(rest.substr(0, 12)) + "'");
  rest.remove_prefix(1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
  r.gloss = rest;
  return r;
}

IndexRecord parse_index_line(std::string_view line, const core::SourceLocation& where) {
  IndexRecord r;
  parse_index_line(line, where, &r);
  return r;
}

void parse_index_line(std::string_view line, const core::SourceLocation& where, IndexRecord* out) {
  FieldCursor c(line, where);
  IndexRecord& r = *out;
  r.offsets.clear();
  r.lemma = c.next("a lemma");
  r.pos = parse_pos(c, nullptr);
  const std::uint32_t n_synsets = c.number("a synset count", 10, 6);
  const std::uint32_t n_symbols = c.number("a pointer symbol count", 10, 3);
  for (std::uint32_t i = 0; i < n_symbols; ++i) c.next("a pointer symbol");
  const std::uint32_t n_senses = c.number("a sense count", 10, 6);
  if (n_senses != n_synsets) {
    c.bad(("a sense count equal to the synset count " + std::to_string(n_synsets)).c_str(),
          std::to_string(n_senses));
  }
  r.n_tagged = c.number("a tagged sense count", 10, 6);
  if (r.n_tagged > n_synsets)
    c.bad("a tagged sense count no larger than the synset count", std::to_string(r.n_tagged));
  r.offsets.reserve(n_synsets);
  for (std::uint32_t i = 0; i < n_synsets; ++i) {
    r.offsets.push_back(c.number("an 8-digit synset offset", 10, 8));
  }
  if (!c.at_end())
    c.fail("expected end of line after " + std::to_string(n_synsets) + " synset offsets");
}

std::vector<std::string_view> parse_exception_line(std::string_view line,
                                                   const core::SourceLocation& where) {
  FieldCursor c(line, where);
  std::vector<std::string_view> fields;
  while (!c.at_end()) fields.push_back(c.next("a word"));
  if (fields.size() < 2)
    c.fail(
        "expected 'inflected-form base-form...' (an inflected form followed by at least one "
        "base form)");
  return fields;
}

}  // namespace assay::wordnet::wndb
