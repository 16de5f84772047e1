#include "text/wordnet_lemmatizer.h"

#include <algorithm>
#include <filesystem>
#include <unordered_set>

#include "core/error.h"
#include "core/line_reader.h"
#include "text/unicode_props.h"

namespace assay::text {
namespace {

constexpr const char* kSuffix[4] = {"noun", "verb", "adj", "adv"};

struct Rule {
  std::string_view old_suffix;
  std::string_view new_suffix;
};

// NLTK's MORPHOLOGICAL_SUBSTITUTIONS, in its order (the order decides ties in lemmatize).
const std::vector<Rule>& rules(WordPos pos) {
  static const std::vector<Rule> kRules[4] = {{{"s", ""},
                                               {"ses", "s"},
                                               {"ves", "f"},
                                               {"xes", "x"},
                                               {"zes", "z"},
                                               {"ches", "ch"},
                                               {"shes", "sh"},
                                               {"men", "man"},
                                               {"ies", "y"}},
                                              {{"s", ""},
                                               {"ies", "y"},
                                               {"es", "e"},
                                               {"es", ""},
                                               {"ed", "e"},
                                               {"ed", ""},
                                               {"ing", "e"},
                                               {"ing", ""}},
                                              {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
                                              {}};
  return kRules[static_cast<int>(pos)];
}

void require_file(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) {
    throw core::MissingResourceError("WordNet file " + path +
                                     " is not installed; install the Debian package " +
                                     WordNetLemmatizer::kDebianPackage + " (apt-get install " +
                                     WordNetLemmatizer::kDebianPackage + ")");
  }
}

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::size_t n_code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::optional<WordPos> wordnet_pos_of_tag(std::string_view tag) {
  if (tag.substr(0, 2) == "nn") return WordPos::kNoun;
  if (tag.substr(0, 2) == "vb") return WordPos::kVerb;
  if (tag.substr(0, 2) == "jj") return WordPos::kAdjective;
  if (tag.substr(0, 2) == "rb") return WordPos::kAdverb;
  return std::nullopt;
}

WordNetLemmatizer::WordNetLemmatizer(const std::string& dir) {
  const std::filesystem::path base(dir);
  std::vector<std::string> paths;
  for (const char* s : kSuffix) {
    paths.push_back((base / (std::string("index.") + s)).string());
    paths.push_back((base / (std::string(s) + ".exc")).string());
  }
  for (const std::string& p : paths) require_file(p);
  lemmas_.reserve(160000);
  for (int p = 0; p < 4; ++p) {
    load_index(paths[2 * p], static_cast<WordPos>(p));
    load_exceptions(paths[2 * p + 1], static_cast<WordPos>(p));
  }
}

void WordNetLemmatizer::load_index(const std::string& path, WordPos pos) {
  // index.<pos> (man 5 wndb): "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt
  // tagsense_cnt synset_offset...". Lines starting with a space are the licence header.
  core::LineReader reader(path);
  std::string_view line;
  const auto bit = static_cast<std::uint8_t>(1u << static_cast<int>(pos));
  while (reader.next(line)) {
    if (line.empty() || line[0] == ' ') continue;
    const std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos || sp == 0 || sp + 2 > line.size() ||
        (line.size() > sp + 2 && line[sp + 2] != ' ')) {
      throw core::ParseError(reader.location(),
                             "expected 'lemma pos synset_cnt ...' (a WordNet index line)");
    }
    const char p = line[sp + 1];
    if (p != 'n' && p != 'v' && p != 'a' && p != 'r' && p != 's') {
      throw core::ParseError(
          reader.location(sp + 2),
          std::string("expected a part of speech n, v, a, r or s, got '") + p + "'");
    }
    const std::string_view lemma = line.substr(0, sp);
    auto it = lemmas_.find(lemma);
    if (it == lemmas_.end()) it = lemmas_.emplace(std::string(lemma), 0).first;
    it->second |= bit;
  }
}

void WordNetLemmatizer::load_exceptions(const std::string& path, WordPos pos) {
  // <pos>.exc: "inflected base [base...]".
  core::LineReader reader(path);
  std::string_view line;
  auto& map = exceptions_[static_cast<int>(pos)];
  auto& inverse = inverse_exceptions_[static_cast<int>(pos)];
  while (reader.next(line)) {
    const auto f = fields(line);
    if (f.size() < 2) {
      throw core::ParseError(reader.location(),
                             "expected 'inflected-form base-form...' (a WordNet exception line)");
    }
    std::vector<std::string> bases(f.begin() + 1, f.end());
    for (const auto& b : bases) inverse[b].emplace_back(f[0]);
    map[std::string(f[0])] = std::move(bases);  // a repeated form overrides, as in NLTK
  }
}

bool WordNetLemmatizer::is_lemma(std::string_view word, WordPos pos) const {
  const auto it = lemmas_.find(word);
  return it != lemmas_.end() && (it->second >> static_cast<int>(pos) & 1u);
}

const std::vector<std::string>* WordNetLemmatizer::exception_bases(std::string_view form,
                                                                   WordPos pos) const {
  const auto& map = exceptions_[static_cast<int>(pos)];
  const auto it = map.find(form);
  return it == map.end() ? nullptr : &it->second;
}

std::vector<std::string> WordNetLemmatizer::exception_forms(std::string_view base,
                                                            WordPos pos) const {
  const auto& map = inverse_exceptions_[static_cast<int>(pos)];
  const auto it = map.find(base);
  return it == map.end() ? std::vector<std::string>{} : it->second;
}

std::vector<std::string> WordNetLemmatizer::morphy(std::string_view form, WordPos pos) const {
  // Keeps the forms that are lemmas, first occurrence first (NLTK's filter_forms).
  auto filter = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> out;
    for (const std::string& f : forms) {
      if (is_lemma(f, pos) && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    }
    return out;
  };
  // Duplicates are dropped as they appear; NLTK keeps them, which changes neither the set nor
  // the first-occurrence order of what filter returns.
  auto apply_rules = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    for (const std::string& f : forms) {
      for (const Rule& r : rules(pos)) {
        if (!ends_with(f, r.old_suffix)) continue;
        std::string g = f.substr(0, f.size() - r.old_suffix.size());
        g.append(r.new_suffix);
        if (seen.insert(g).second) out.push_back(std::move(g));
      }
    }
    return out;
  };
  if (const auto* bases = exception_bases(form, pos)) {
    std::vector<std::string> forms{std::string(form)};
    forms.insert(forms.end(), bases->begin(), bases->end());
    return filter(forms);
  }
  std::vector<std::string> forms = apply_rules({std::string(form)});
  std::vector<std::string> with_form{std::string(form)};
  with_form.insert(with_form.end(), forms.begin(), forms.end());
  auto results = filter(with_form);
  if (!results.empty()) return results;
  while (!forms.empty()) {
    forms = apply_rules(forms);
    results = filter(forms);
    if (!results.empty()) return results;
  }
  return {};
}

std::string WordNetLemmatizer::lemmatize(std::string_view word, WordPos pos) const {
  const auto lemmas = morphy(word, pos);
  if (lemmas.empty()) return std::string(word);
  const std::string* best = &lemmas[0];
  for (const std::string& l : lemmas) {
    if (n_code_points(l) < n_code_points(*best)) best = &l;
  }
  return *best;
}

}  // namespace assay::text
