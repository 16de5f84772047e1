#include "fairness/coreference.h"

#include <algorithm>
#include <map>
#include <set>

namespace assay::fairness {

using knowledge::Gender;

std::optional<GenderedPronoun> classify_pronoun(std::string_view lower, std::size_t token,
                                                bool before_nominal) {
  auto make = [&](Gender g, PronounForm f) {
    return GenderedPronoun{token, g, f, std::nullopt, std::nullopt};
  };
  if (lower == "he") return make(Gender::kMale, PronounForm::kSubject);
  if (lower == "him") return make(Gender::kMale, PronounForm::kObject);
  if (lower == "his") {
    return make(Gender::kMale,
                before_nominal ? PronounForm::kDeterminer : PronounForm::kIndependent);
  }
  if (lower == "himself") return make(Gender::kMale, PronounForm::kReflexive);
  if (lower == "she") return make(Gender::kFemale, PronounForm::kSubject);
  if (lower == "her") {
    return make(Gender::kFemale, before_nominal ? PronounForm::kDeterminer : PronounForm::kObject);
  }
  if (lower == "hers") return make(Gender::kFemale, PronounForm::kIndependent);
  if (lower == "herself") return make(Gender::kFemale, PronounForm::kReflexive);
  return std::nullopt;
}

std::string_view swap_pronoun(const GenderedPronoun& p, Gender to) {
  const bool male = to == Gender::kMale;
  switch (p.form) {
    case PronounForm::kSubject:
      return male ? "he" : "she";
    case PronounForm::kObject:
      return male ? "him" : "her";
    case PronounForm::kDeterminer:
      return male ? "his" : "her";
    case PronounForm::kIndependent:
      return male ? "his" : "hers";
    case PronounForm::kReflexive:
      return male ? "himself" : "herself";
  }
  return {};
}

std::vector<std::vector<std::size_t>> resolve_pronouns(
    const std::vector<PersonMention>& mentions, const std::vector<GenderedPronoun>& pronouns,
    const std::vector<std::size_t>& sentence_of) {
  std::vector<std::vector<std::size_t>> out(pronouns.size());
  for (std::size_t k = 0; k < pronouns.size(); ++k) {
    const auto& p = pronouns[k];
    auto compatible = [&](const PersonMention& m) {
      return !m.plural && m.token != p.not_token &&
             (m.gender == p.gender || m.gender == Gender::kNone);
    };
    const std::size_t s = sentence_of[p.token];
    // Mentions of the pronoun's own gender: those of its own sentence before it, else of the
    // sentence before; failing those, every one in the rest of the look-back window, not only
    // the nearest ("Rosalind Russell ... biting Paulette Godard's ankle. The filmmakers
    // decided that this character had to die. In killing her off": two women before "her").
    std::vector<std::size_t> own;
    auto own_gender = [&](std::size_t from_back, std::size_t to_back) {
      for (const auto& m : mentions) {
        const std::size_t ms = sentence_of[m.token];
        if (m.token < p.token && ms + to_back >= s && ms + from_back <= s && compatible(m) &&
            (m.gender == p.gender || m.any_gender))
          own.push_back(m.entity);
      }
    };
    for (std::size_t back = 0; back <= kRecent && own.empty(); ++back) own_gender(back, back);
    if (own.empty()) own_gender(kRecent + 1, kLookBack);
    if (!own.empty()) {
      std::sort(own.begin(), own.end());
      own.erase(std::unique(own.begin(), own.end()), own.end());
      out[k] = std::move(own);
      continue;
    }
    std::vector<const PersonMention*> window;
    // The nearest sentence, going back, with a compatible mention before the pronoun.
    for (std::size_t back = 0; back <= kLookBack && back <= s && window.empty(); ++back) {
      const std::size_t target = s - back;
      for (const auto& m : mentions) {
        if (m.token < p.token && sentence_of[m.token] == target && compatible(m))
          window.push_back(&m);
      }
    }
    if (window.empty() && p.clause_end) {  // cataphora, after its clause in its own sentence
      for (const auto& m : mentions) {
        if (m.token > *p.clause_end && sentence_of[m.token] == s && compatible(m))
          window.push_back(&m);
      }
    }
    const bool gendered = std::any_of(window.begin(), window.end(), [&](const PersonMention* m) {
      return m->gender == p.gender;
    });
    std::vector<std::size_t> found;
    for (const auto* m : window) {
      if (!gendered || m->gender == p.gender) found.push_back(m->entity);
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    // An earlier pronoun of its gender in its sentence refers to someone unnamed: this one
    // may too ("barry convinces us he's a dangerous guy who could have killed a president
    // because it made him feel powerful").
    if (!found.empty()) {
      for (std::size_t j = 0; j < k; ++j) {
        if (out[j].empty() && pronouns[j].gender == p.gender &&
            sentence_of[pronouns[j].token] == s) {
          found.push_back(kUnnamed);
          break;
        }
      }
    }
    out[k] = std::move(found);
  }
  return out;
}

std::vector<std::optional<Description>> described_words(const std::vector<DescribingNoun>& nouns,
                                                        const DescriptionContext& c) {
  static const std::set<std::string_view> kCopulas = {
      "is",     "was",     "'s",       "be",    "been",   "became", "becomes",
      "become", "remains", "remained", "seems", "seemed", "isn't",  "wasn't"};
  static const std::set<std::string_view> kDeterminers = {"a",   "an",  "the", "my",   "your",
                                                          "his", "her", "our", "their"};
  const auto& words = c.words;
  auto tag_starts = [&](std::size_t t, std::string_view prefix) {
    return c.tag(t).substr(0, prefix.size()) == prefix;
  };
  std::vector<std::optional<Description>> out(nouns.size());
  std::map<std::size_t, knowledge::Gender> gendered_singular;
  for (const auto& n : nouns) {
    if (n.gendered && !n.plural) gendered_singular[n.token] = n.gender;
  }
  auto gendered_noun = [&](std::size_t u) { return gendered_singular.count(u) > 0; };
  auto gender_at = [&](std::size_t u) {
    const auto it = gendered_singular.find(u);
    return it != gendered_singular.end() ? it->second : c.gender_of(u);
  };
  // A word that names one person: a singular pronoun of a gender, a first name or its
  // surname, a first name the name rules did not take, a gendered singular noun.
  auto person_word = [&](std::size_t u) -> std::optional<std::size_t> {
    static const std::set<std::string_view> kPronouns = {"he", "him", "his", "she", "her"};
    if (kPronouns.count(words[u]) || c.name_at.count(u) || c.unnamed_first_name(u) ||
        gendered_noun(u))
      return u;
    return std::nullopt;
  };
  for (std::size_t a = 0; a < nouns.size(); ++a) {
    const std::size_t t = nouns[a].token;
    auto same = [&](std::size_t u) {
      return u < words.size() && c.sentence_of[u] == c.sentence_of[t];
    };
    if (nouns[a].plural) {
      // "Sean Astin (one of my favorite actors)", "he is one of the finest actors": a member
      // of the group, the person named just before.
      std::size_t j = t;
      while (j > 0 && same(j - 1) && (tag_starts(j - 1, "jj") || tag_starts(j - 1, "rb"))) --j;
      if (j >= 3 && same(j - 3) && kDeterminers.count(words[j - 1]) && words[j - 2] == "of" &&
          words[j - 3] == "one") {
        std::size_t u = j - 3;
        while (u > 0 && same(u - 1) &&
               (words[u - 1] == "(" || words[u - 1] == "," || kCopulas.count(words[u - 1]) ||
                tag_starts(u - 1, "rb")))
          --u;
        if (u > 0 && u < j - 3 && same(u - 1)) {
          if (const auto who = person_word(u - 1);
              who && words[*who] != "his" && words[*who] != "her")
            out[a] = Description{*who};
        }
      }
      continue;
    }
    if (nouns[a].gendered && same(t + 1)) {
      const auto it = c.name_at.find(t + 1);
      if ((it != c.name_at.end() && it->second == t + 1) ||
          (!c.capitalised(t + 1) && c.unnamed_first_name(t + 1))) {
        out[a] = Description{t + 1};
        continue;
      }
    }
    // "the director , mark pellington ,": the name after a comma is the noun's person.
    if (same(t + 2) && words[t + 1] == ",") {
      const auto it = c.name_at.find(t + 2);
      if ((it != c.name_at.end() && it->second == t + 2) ||
          (!c.capitalised(t + 2) && c.unnamed_first_name(t + 2))) {
        out[a] = Description{t + 2};
        continue;
      }
    }
    std::size_t j = t;  // over adjectives, adverbs, commas and "and"
    while (j > 0 && same(j - 1) &&
           (tag_starts(j - 1, "jj") || tag_starts(j - 1, "rb") ||
            (tag_starts(j - 1, "nn") && !c.capitalised(j - 1)) || words[j - 1] == "," ||
            words[j - 1] == "and"))
      --j;
    if (j < 2 || !same(j - 2) || !kDeterminers.count(words[j - 1])) continue;
    const bool indefinite = words[j - 1] == "a" || words[j - 1] == "an";
    // "in a role as a bad actor", "improvise like a jazzman": the nearest person before it in
    // its sentence, unless their genders differ (a role: "rob schneider ... turns in a
    // performance as a prissy teenage girl").
    if (indefinite && (words[j - 2] == "as" || words[j - 2] == "like")) {
      for (std::size_t u = j - 2; u > 0 && same(u - 1); --u) {
        if (const auto who = person_word(u - 1)) {
          const auto g = gender_at(*who);
          if (!nouns[a].gendered || g == knowledge::Gender::kNone || g == nouns[a].gender)
            out[a] = Description{*who, words[j - 2] == "like"};
          break;
        }
      }
      if (out[a]) continue;
    }
    // "turns the marquis de sade into a dullard": the person turned, the nearest before it.
    if (indefinite && words[j - 2] == "into") {
      static const std::set<std::string_view> kTurning = {
          "turn",        "turns",        "turned", "turning", "transform", "transforms",
          "transformed", "transforming", "change", "changes", "changed",   "changing"};
      for (std::size_t u = j - 2; u > 0 && same(u - 1) && u + 8 > j; --u) {
        if (kTurning.count(words[u - 1])) break;
        if (const auto who = person_word(u - 1)) {
          if (u >= 2 && same(u - 2) &&
              (kTurning.count(words[u - 2]) ||
               (u >= 3 && same(u - 3) && kTurning.count(words[u - 3]))))
            out[a] = Description{*who};
          break;
        }
      }
      if (out[a]) continue;
    }
    std::size_t v = j - 2;
    // "is at 22 a powerful young actor": an age between the verb and the noun.
    if (v >= 2 && same(v - 1) && tag_starts(v, "cd") && words[v - 1] == "at") v -= 2;
    while (v > 0 && same(v - 1) && tag_starts(v, "rb")) --v;  // "was also a"
    // "ryan gosling . . . is": the subject before an ellipsis, which may end a sentence.
    std::size_t subject = v > 0 ? v - 1 : 0, dots = 0;
    while (subject > 0 && (words[subject] == "." || words[subject] == "...")) {
      dots += words[subject].size();
      --subject;
    }
    if (kCopulas.count(words[v]) && v > 0 && (dots == 0 ? same(v - 1) : dots >= 2)) {
      if (words[subject] == "he" || words[subject] == "she" || c.name_at.count(subject) ||
          c.unnamed_first_name(subject) ||
          (subject > 0 && c.sentence_of[subject - 1] == c.sentence_of[subject] &&
           c.unnamed_first_name(subject - 1)) ||
          gendered_noun(subject))
        out[a] = Description{subject};
    } else if (words[j - 2] == "," && j >= 3 && same(j - 3) &&
               (c.name_at.count(j - 3) || c.proper_noun(j - 3)) &&
               (words[j - 1] == "a" || words[j - 1] == "an" || words[j - 1] == "the")) {
      out[a] = Description{j - 3};
    }
  }
  return out;
}

}  // namespace assay::fairness
