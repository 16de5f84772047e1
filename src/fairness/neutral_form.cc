// Perturbator::neutral_form: the representative of a text's class for the neutral layer
// (neutral_class.h). Every word the perturbator may change or insert is rewritten to one form
// that does not depend on the group it names, so a text and each of its perturbations give the
// same representative.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fairness/perturbator.h"
#include "text/inflector.h"
#include "text/unicode_props.h"
#include "text/wordnet_lemmatizer.h"

namespace assay::fairness {
namespace {

bool word_byte(unsigned char c) {
  return std::isalpha(c) || c >= 0x80;
}

// The words of a phrase as the rewriting compares them: lower case, split on spaces, '_' and
// '-'.
std::vector<std::string> phrase_words(std::string_view phrase) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : phrase) {
    if (c == ' ' || c == '_' || c == '-') {
      if (!cur.empty()) out.push_back(text::to_lower(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(text::to_lower(cur));
  return out;
}

// A phrase's words joined by one space (the key the forms are built on).
std::string phrase_key(const std::string& phrase) {
  std::string k;
  for (const auto& w : phrase_words(phrase)) k += (k.empty() ? "" : " ") + w;
  return k;
}

// The words of a text (letters and the bytes of multi-byte characters) and the gaps between
// them: gaps[i] stands before words[i], gaps.back() after the last word.
struct Tokens {
  std::vector<std::string> words, gaps;
};

Tokens tokenize(std::string_view text) {
  Tokens t;
  std::size_t i = 0;
  std::string gap;
  while (i < text.size()) {
    if (word_byte(static_cast<unsigned char>(text[i]))) {
      std::size_t j = i;
      while (j < text.size() && word_byte(static_cast<unsigned char>(text[j]))) ++j;
      t.gaps.push_back(std::move(gap));
      gap.clear();
      t.words.emplace_back(text.substr(i, j - i));
      i = j;
    } else {
      gap += text[i++];
    }
  }
  t.gaps.push_back(std::move(gap));
  return t;
}

bool joins_phrase(const std::string& gap) {
  return gap == " " || gap == "-";
}

bool capitalised(std::string_view w) {
  return !w.empty() && std::isupper(static_cast<unsigned char>(w[0]));
}

// What an attribute's phrase becomes.
enum class WordKind {
  kGroup,       // a word naming a group (adjective, noun, member noun, first name): left out
  kAssociated,  // a word that changes with the group: one word of its row
};

struct Rewrite {
  std::vector<std::string> words;  // lower case
  WordKind kind = WordKind::kGroup;
  std::string replacement;  // kAssociated: the row's word
};

}  // namespace

struct NeutralForms {
  // Phrases by their first word, longest first.
  std::map<std::string, std::vector<Rewrite>> phrases;
};

namespace {

// The attribute's group words: adjectives, nouns (singular and plural rows, the plurals of
// singular nouns and member nouns by `pluralize`) and first names, all left out; associated
// words, rows sharing a word merged (the smallest word stands for its class, whatever the row
// order).
NeutralForms build_forms(const SensitiveAttribute& a,
                         const std::function<std::string(const std::string&)>& pluralize) {
  std::set<std::string> adjectives, singular, plural;
  for (const auto& g : a.groups)
    if (!g.active.empty()) adjectives.insert(phrase_key(g.active));
  for (const auto& row : a.adjectives)
    for (const auto& w : row)
      if (!w.empty()) adjectives.insert(phrase_key(w));
  for (const auto* table : {&a.nouns, &a.members}) {
    for (const auto& row : *table) {
      for (const auto& w : row) {
        if (w.empty()) continue;
        singular.insert(phrase_key(w));
        plural.insert(phrase_key(pluralize(w)));
      }
    }
  }
  for (const auto& row : a.plurals)
    for (const auto& w : row)
      if (!w.empty()) plural.insert(phrase_key(w));
  for (const auto& g : a.groups) {
    for (const auto* names : {&g.female_names, &g.male_names})
      for (const auto& n : *names) singular.insert(phrase_key(n));
  }
  std::map<std::string, std::string> parent;
  std::function<std::string(const std::string&)> find = [&](const std::string& x) {
    auto it = parent.find(x);
    if (it == parent.end() || it->second == x) return x;
    return it->second = find(it->second);
  };
  for (const auto& row : a.associated) {
    std::string first;
    for (const auto& w : row) {
      const std::string k = phrase_key(w);
      if (k.empty()) continue;
      parent.try_emplace(k, k);
      if (first.empty()) {
        first = k;
        continue;
      }
      const std::string rk = find(k), rf = find(first);
      if (rk != rf) parent[std::max(rk, rf)] = std::min(rk, rf);
    }
  }
  NeutralForms forms;
  auto add = [&forms](const std::string& key, WordKind kind, std::string replacement = {}) {
    auto words = phrase_words(key);
    if (words.empty()) return;
    forms.phrases[words[0]].push_back({std::move(words), kind, std::move(replacement)});
  };
  std::set<std::string> all = adjectives;
  all.insert(singular.begin(), singular.end());
  all.insert(plural.begin(), plural.end());
  for (const auto& k : all) add(k, WordKind::kGroup);
  for (const auto& [k, p] : parent) {
    (void)p;
    if (all.count(k) == 0) add(k, WordKind::kAssociated, find(k));
  }
  for (auto& [first, list] : forms.phrases) {
    std::stable_sort(list.begin(), list.end(), [](const Rewrite& x, const Rewrite& y) {
      return x.words.size() > y.words.size();
    });
  }
  return forms;
}

// The longest phrase of `forms` at word i (joined by one space or a hyphen), or null.
const Rewrite* phrase_at(const NeutralForms& forms, const Tokens& t,
                         const std::vector<std::string>& lower, std::size_t i) {
  const auto it = forms.phrases.find(lower[i]);
  if (it == forms.phrases.end()) return nullptr;
  for (const auto& r : it->second) {
    if (i + r.words.size() > lower.size()) continue;
    bool ok = true;
    for (std::size_t k = 1; k < r.words.size() && ok; ++k)
      ok = lower[i + k] == r.words[k] && joins_phrase(t.gaps[i + k]);
    if (ok) return &r;
  }
  return nullptr;
}

}  // namespace

const NeutralForms& Perturbator::neutral_forms() const {
  std::call_once(neutral_forms_once_, [this] {
    neutral_forms_ = std::make_shared<const NeutralForms>(build_forms(
        attribute_, [this](const std::string& w) { return r_.inflector->pluralize(w); }));
  });
  return *neutral_forms_;
}

std::string Perturbator::neutral_word(const std::string& lower) const {
  if (lower == "a" || lower == "an") return "a";
  if (!attribute_.uses_gender_finder) return {};
  static const std::map<std::string, std::string, std::less<>> pronouns = {
      {"he", "they"},   {"she", "they"},   {"him", "their"},          {"her", "their"},
      {"his", "their"}, {"hers", "their"}, {"himself", "themselves"}, {"herself", "themselves"}};
  if (auto it = pronouns.find(lower); it != pronouns.end()) return it->second;
  if (is_title(lower)) return "mx";
  for (const auto& form : r_.lemmatizer->morphy(lower, text::PartOfSpeech::kNoun))
    if (is_title(form)) return "mx";  // a title written as a plural ("mses")
  // A -woman compound as its -man form ("craftswomen": "craftsmen").
  auto ends = [&lower](std::string_view suffix) {
    return lower.size() > suffix.size() &&
           lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  for (const char* female : {"woman", "women"}) {
    if (ends(female)) {
      const std::string male =
          lower.substr(0, lower.size() - 5) + (female[3] == 'a' ? "man" : "men");
      if (const std::string w = neutral_word(male); w == "person" || w == "people") return w;
    }
  }
  if (ends("men") &&
      compound_gender(lower.substr(0, lower.size() - 3) + "man") != knowledge::Gender::kNone)
    return "people";
  if (ends("man") && compound_gender(lower) != knowledge::Gender::kNone) return "person";
  // A person noun with a gender of its own, singular or plural, and first names: one word for
  // both, as a name may be a noun too ("beau", "donna") and the name lists hold "Man".
  if (const auto plural = person_lemma(lower, true); plural && *plural != lower) {
    if (noun_gender(*plural) != knowledge::Gender::kNone) return "people";
  }
  if (const auto single = person_lemma(lower, false)) {
    if (noun_gender(*single) != knowledge::Gender::kNone) return "person";
  }
  if (r_.first_names && r_.first_names->gender_of(lower) != knowledge::Gender::kNone)
    return "person";
  return {};
}

std::string Perturbator::neutral_form(std::string_view text) const {
  const auto& forms = neutral_forms();
  const Tokens t = tokenize(text);
  const std::size_t n = t.words.size();
  std::vector<std::string> lower(n);
  for (std::size_t i = 0; i < n; ++i) lower[i] = text::to_lower(t.words[i]);
  std::string out;
  std::string pending_gap = t.gaps[0];
  bool capitalise_next = false;
  auto emit = [&](const std::string& word, std::string_view case_of) {
    out += pending_gap;
    std::string w = case_of.empty() ? word : text::transfer_case(case_of, word);
    if (capitalise_next && !w.empty()) w[0] = static_cast<char>(std::toupper(w[0]));
    capitalise_next = false;
    out += w;
  };
  std::size_t i = 0;
  while (i < n) {
    const Rewrite* hit = phrase_at(forms, t, lower, i);
    const std::size_t len = hit ? hit->words.size() : 1;
    std::string replacement;
    bool remove = false;
    if (hit) {
      // Left out whether it is an adjective or a noun ("a German" and "a Chinese person" are
      // both "a"), with "person" / "people" below.
      remove = hit->kind == WordKind::kGroup;
      replacement = hit->replacement;
    } else if (attribute_.uses_gender_finder) {
      if (lower[i] == "male" || lower[i] == "female") {
        remove = true;
      } else {
        replacement = neutral_word(lower[i]);
      }
    } else if (lower[i] == "person" || lower[i] == "people") {
      remove = true;  // what a group with no noun of its own is written with ("Chinese person")
    } else {
      replacement = neutral_word(lower[i]);
    }
    if (remove) {
      // Left out with the gap after it (at the end of the text, the gap before it); the capital
      // of a sentence's first word moves to the next ("Female actors" -> "Actors").
      const auto end = pending_gap.find_last_not_of(" \t\n");
      const bool starts_sentence =
          out.empty() || (end != std::string::npos &&
                          std::string_view(".!?").find(pending_gap[end]) != std::string::npos);
      capitalise_next = capitalise_next || (starts_sentence && capitalised(t.words[i]));
      if (i + len == n) pending_gap = t.gaps[n];
      i += len;
      continue;
    }
    // A phrase (an associated word of several) is written as its row's word.
    emit(replacement.empty() ? t.words[i] : replacement,
         replacement.empty() ? std::string_view() : std::string_view(t.words[i]));
    i += len;
    // A double name is one name ("Anne-Sophie" -> "Paul"): "person-person" is one "person".
    while (replacement == "person" && i < n && t.gaps[i] == "-" &&
           neutral_word(lower[i]) == "person")
      ++i;
    pending_gap = t.gaps[i];
  }
  out += pending_gap;
  return out;
}

}  // namespace assay::fairness
