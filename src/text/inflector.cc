#include "text/inflector.h"

#include <array>
#include <cctype>

#include "text/unicode_props.h"

namespace assay::text {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_vowel(char c) {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

// noun.exc plurals that are archaic or specialised next to the regular form.
constexpr std::array<std::string_view, 6> kPreferRegular = {"brother", "penny", "genius",
                                                            "fish",    "cow",   "staff"};
// Plurals WordNet indexes as lemmas of their own rather than as exceptions.
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> kExtraIrregular = {
    {{"person", "people"}}};
// -man nouns that are not compounds of "man".
constexpr std::array<std::string_view, 14> kManNotCompound = {
    "human", "german", "shaman",  "talisman", "caiman", "cayman", "ottoman",
    "roman", "dolman", "pullman", "doberman", "norman", "hetman", "desman"};

template <typename Array>
bool contains(const Array& a, std::string_view s) {
  for (const auto& x : a) {
    if (x == s) return true;
  }
  return false;
}

std::string regular_plural(const std::string& w) {
  if (w.empty()) return w;
  if (ends_with(w, "man") && !contains(kManNotCompound, w)) {
    return w.substr(0, w.size() - 3) + "men";
  }
  if (ends_with(w, "s") || ends_with(w, "x") || ends_with(w, "z") || ends_with(w, "ch") ||
      ends_with(w, "sh")) {
    return w + "es";
  }
  if (w.size() >= 2 && w.back() == 'y' && !is_vowel(w[w.size() - 2])) {
    return w.substr(0, w.size() - 1) + "ies";
  }
  return w + "s";
}

std::string regular_singular(const std::string& w) {
  if (ends_with(w, "men") && !contains(kManNotCompound, w.substr(0, w.size() - 3) + "man")) {
    return w.substr(0, w.size() - 3) + "man";
  }
  if (ends_with(w, "ies") && w.size() > 3) return w.substr(0, w.size() - 3) + "y";
  for (std::string_view s : {"sses", "xes", "zes", "ches", "shes"}) {
    if (ends_with(w, s)) return w.substr(0, w.size() - 2);
  }
  if (ends_with(w, "s") && !ends_with(w, "ss") && w.size() > 1) return w.substr(0, w.size() - 1);
  return w;
}

}  // namespace

std::string Inflector::pluralize(std::string_view noun) const {
  const std::string w = to_lower(noun);
  for (const auto& [singular, plural] : kExtraIrregular) {
    if (w == singular) return transfer_case(noun, plural);
  }
  if (!contains(kPreferRegular, w)) {
    // The first listed irregular form whose only base is this noun ("axes" lists ax and axis:
    // it is the plural of neither for certain).
    for (const std::string& form : lemmatizer_.exception_forms(w, PartOfSpeech::kNoun)) {
      const auto* bases = lemmatizer_.exception_bases(form, PartOfSpeech::kNoun);
      if (bases != nullptr && bases->size() == 1) return transfer_case(noun, form);
    }
  }
  return transfer_case(noun, regular_plural(w));
}

std::string Inflector::singularize(std::string_view noun) const {
  const std::string w = to_lower(noun);
  for (const auto& [singular, plural] : kExtraIrregular) {
    if (w == plural) return transfer_case(noun, singular);
  }
  const auto lemmas = lemmatizer_.morphy(w, PartOfSpeech::kNoun);
  for (const std::string& l : lemmas) {
    if (l != w) return transfer_case(noun, l);  // the first lemma other than the form itself
  }
  if (!lemmas.empty()) return transfer_case(noun, w);  // already a singular WordNet noun
  return transfer_case(noun, regular_singular(w));
}

std::string_view indefinite_article(std::string_view word) {
  std::size_t i = 0;
  while (i < word.size() && !std::isalnum(static_cast<unsigned char>(word[i]))) ++i;
  const std::string_view w = word.substr(i);
  if (w.empty()) return "a";
  const char c0 = w[0];
  if (std::isdigit(static_cast<unsigned char>(c0))) {
    // Numbers read aloud: 8, 11, 18, 80-89, 800... start with a vowel sound.
    std::size_t n = 0;
    while (n < w.size() && std::isdigit(static_cast<unsigned char>(w[n]))) ++n;
    if (c0 == '8') return "an";
    if (c0 == '1' && (n == 2 || n == 5 || n == 8) && n >= 2 && (w[1] == '1' || w[1] == '8')) {
      return "an";  // eleven, eighteen, eleven thousand, ...
    }
    return "a";
  }
  // Initialisms (all capitals, no lower case): the name of the first letter decides.
  bool all_upper = w.size() >= 2;
  for (char c : w.substr(0, std::min<std::size_t>(w.size(), 6))) {
    if (std::islower(static_cast<unsigned char>(c))) all_upper = false;
  }
  bool has_vowel = false;
  for (char c : w)
    has_vowel |= is_vowel(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (all_upper && (w.size() <= 3 || !has_vowel)) {
    return std::string_view("AEFHILMNORSX").find(c0) != std::string_view::npos ? "an" : "a";
  }
  const std::string lw = to_lower(w.substr(0, std::min<std::size_t>(w.size(), 8)));
  for (std::string_view p : {"hour", "honest", "honor", "honour", "heir", "herb"}) {
    if (lw.starts_with(p)) return "an";
  }
  for (std::string_view p : {"one", "once", "eu", "ewe", "uni", "use", "usu", "ura", "ure", "uri",
                             "uti", "ubi", "uku"}) {
    if (lw.starts_with(p)) return "a";
  }
  if (lw.size() == 1 && lw[0] == 'u') return "a";
  return is_vowel(lw[0]) ? "an" : "a";
}

std::string transfer_case(std::string_view original, std::string_view replacement) {
  std::size_t n_upper = 0, n_lower = 0;
  bool first_upper = false, first_seen = false;
  for (std::size_t i = 0; i < original.size();) {
    const char32_t c = decode_utf8(original, i);
    const bool up = is_upper_char(c), low = is_lower_char(c);
    if (!first_seen && (up || low)) {
      first_seen = true;
      first_upper = up;
    }
    n_upper += up;
    n_lower += low;
  }
  if (n_upper >= 2 && n_lower == 0) {
    std::string out;
    for (std::size_t i = 0; i < replacement.size();) {
      append_utf8(out, to_upper_char(decode_utf8(replacement, i)));
    }
    return out;
  }
  if (first_upper) return upper_first(replacement);
  return std::string(replacement);
}

}  // namespace assay::text
