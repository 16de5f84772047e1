#include "text/wordnet_lemmatizer.h"

#include <algorithm>
#include <unordered_set>

namespace assay::text {
namespace {

struct Rule {
  std::string_view old_suffix;
  std::string_view new_suffix;
};

// NLTK's MORPHOLOGICAL_SUBSTITUTIONS, in its order (the order decides ties in lemmatize).
const std::vector<Rule>& rules(PartOfSpeech pos) {
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

std::size_t n_code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::optional<PartOfSpeech> wordnet_pos_of_tag(std::string_view tag) {
  if (tag.substr(0, 2) == "nn") return PartOfSpeech::kNoun;
  if (tag.substr(0, 2) == "vb") return PartOfSpeech::kVerb;
  if (tag.substr(0, 2) == "jj") return PartOfSpeech::kAdjective;
  if (tag.substr(0, 2) == "rb") return PartOfSpeech::kAdverb;
  return std::nullopt;
}

WordNetLemmatizer::WordNetLemmatizer(const std::string& dir)
    : WordNetLemmatizer(wordnet::Database::open(dir)) {}

WordNetLemmatizer::WordNetLemmatizer(std::shared_ptr<const wordnet::Database> database)
    : database_(std::move(database)), lexicon_(database_->lexicon()) {}

bool WordNetLemmatizer::is_lemma(std::string_view word, PartOfSpeech pos) const {
  return lexicon_.is_lemma(word, pos);
}

const std::vector<std::string>* WordNetLemmatizer::exception_bases(std::string_view form,
                                                                   PartOfSpeech pos) const {
  const auto* lines = lexicon_.exception_lines(form, pos);
  return lines ? &lines->back() : nullptr;  // a repeated form overrides, as in NLTK
}

std::vector<std::string> WordNetLemmatizer::exception_forms(std::string_view base,
                                                            PartOfSpeech pos) const {
  const auto* forms = lexicon_.exception_forms(base, pos);
  return forms ? *forms : std::vector<std::string>{};
}

std::vector<std::string> WordNetLemmatizer::morphy(std::string_view form, PartOfSpeech pos) const {
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

std::string WordNetLemmatizer::lemmatize(std::string_view word, PartOfSpeech pos) const {
  const auto lemmas = morphy(word, pos);
  if (lemmas.empty()) return std::string(word);
  const std::string* best = &lemmas[0];
  for (const std::string& l : lemmas) {
    if (n_code_points(l) < n_code_points(*best)) best = &l;
  }
  return *best;
}

}  // namespace assay::text
