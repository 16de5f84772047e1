#include "fairness/gender_lexicon.h"

#include <algorithm>

#include "core/error.h"
#include "core/line_reader.h"

#ifndef ASSAY_LEXICON_DIR
#define ASSAY_LEXICON_DIR "data/lexicon"
#endif

namespace assay::fairness {
namespace {

// Splits a row on tabs.
std::vector<std::string_view> tab_fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

bool is_word(std::string_view w) {
  if (w.empty()) return false;
  for (const char c : w) {
    const bool ok = (c >= 'a' && c <= 'z') || c == '-' || c == '_' || c == '\'' || c == '.' ||
                    static_cast<unsigned char>(c) >= 0x80;  // UTF-8 (fiancé)
    if (!ok) return false;
  }
  return true;
}

}  // namespace

GenderLexicon GenderLexicon::load(const std::string& path) {
  core::LineReader reader(path);
  GenderLexicon lexicon;
  std::string_view line;
  while (reader.next(line)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto fields = tab_fields(line);
    if (fields.size() != 4) {
      throw core::ParseError(reader.location(),
                             "expected 4 tab-separated fields (male, female, "
                             "category, source), got " +
                                 std::to_string(fields.size()));
    }
    for (std::size_t c = 0; c < 2; ++c) {
      if (!is_word(fields[c])) {
        throw core::ParseError(reader.location(),
                               "expected a lower-case word, got '" + std::string(fields[c]) + "'");
      }
    }
    if (fields[0] == fields[1]) {
      throw core::ParseError(reader.location(),
                             "'" + std::string(fields[0]) + "' is paired with itself");
    }
    auto spaced = [](std::string_view w) {
      std::string s(w);
      std::replace(s.begin(), s.end(), '_', ' ');
      return s;
    };
    const std::string male = spaced(fields[0]), female = spaced(fields[1]);
    // First row wins: later rows only add words not yet seen.
    lexicon.entries_.try_emplace(male, Entry{female, knowledge::Gender::kMale,
                                             std::string(fields[2]), std::string(fields[3])});
    lexicon.entries_.try_emplace(female, Entry{male, knowledge::Gender::kFemale,
                                               std::string(fields[2]), std::string(fields[3])});
  }
  return lexicon;
}

std::string GenderLexicon::default_path() {
  return std::string(ASSAY_LEXICON_DIR) + "/gender-pairs.tsv";
}

const GenderLexicon::Entry* GenderLexicon::find(std::string_view lemma) const {
  const auto it = entries_.find(std::string(lemma));
  return it == entries_.end() ? nullptr : &it->second;
}

}  // namespace assay::fairness
