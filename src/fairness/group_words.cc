#include "fairness/group_words.h"

#include <algorithm>
#include <array>

#include "text/unicode_props.h"

namespace assay::fairness {
namespace {

// The reason a group word inside an `other` phrase is refused with (it marks the refusal).
constexpr std::string_view kOtherGroup = "names people by a group of another kind";

// Lower case, with '-' and '_' read as spaces: the key under which a form is matched.
std::string normalise(std::string_view word) {
  std::string out = text::to_lower(word);
  for (char& c : out) {
    if (c == '-' || c == '_') c = ' ';
  }
  return out;
}

std::size_t word_count(std::string_view key) {
  return static_cast<std::size_t>(std::count(key.begin(), key.end(), ' ')) + 1;
}

// Nouns for people, or groups of people, that a group adjective describes ("black
// communities", "Muslim families", "the Muslim characters"), though the person classifier
// does not call them persons.
constexpr std::array<std::string_view, 24> kPeopleNouns = {
    "people",        "peoples",        "folk",      "folks",      "community",    "communities",
    "population",    "populations",    "family",    "families",   "neighborhood", "neighborhoods",
    "neighbourhood", "neighbourhoods", "household", "households", "couple",       "couples",
    "character",     "characters",     "audience",  "audiences",  "crowd",        "crowds"};

// Nouns of time after "last", "next", …: "became Buddhist last year" says nothing of a year.
constexpr std::array<std::string_view, 20> kTimeNouns = {
    "year",   "years",  "month",  "months", "week",   "weeks",   "day",
    "days",   "night",  "nights", "time",   "times",  "morning", "evening",
    "summer", "winter", "spring", "autumn", "decade", "century"};

constexpr std::array<std::string_view, 7> kTimeDeterminers = {"last", "next", "this", "every",
                                                              "each", "that", "one"};

// Units before "old" that make it an age ("a 60 year old man").
constexpr std::array<std::string_view, 12> kAgeUnits = {"year",  "years",  "yr",    "yrs",
                                                        "month", "months", "week",  "weeks",
                                                        "day",   "days",   "-year", "-yr"};

// Comparatives that are no determiner's adjectives ("any more gay").
constexpr std::array<std::string_view, 4> kComparatives = {"more", "most", "less", "least"};

// Words that determine a singular noun ("a Muslim", "their Catholic", "every Jew").
constexpr std::array<std::string_view, 19> kDeterminers = {
    "a",  "an",   "the", "this", "that", "every", "each",  "another", "one", "any",
    "my", "your", "his", "her",  "its",  "our",   "their", "no",      "some"};

// Verbs before "as" that make what follows the subject's predicate ("came out as gay").
constexpr std::array<std::string_view, 6> kAsPredicate = {
    "out", "identify", "identifies", "identified", "identifying", "self-identifies"};

// Words that link a subject to a predicate adjective ("she is Muslim", "he became old").
constexpr std::array<std::string_view, 19> kCopulas = {
    "is", "are",    "was",     "were",   "be",   "been",  "being",  "am",     "'s",     "'re",
    "'m", "become", "becomes", "became", "seem", "seems", "seemed", "remain", "remains"};

constexpr std::array<std::string_view, 6> kPersonalPronouns = {"he", "she", "i",
                                                               "we", "you", "they"};

template <std::size_t N>
bool among(const std::array<std::string_view, N>& list, std::string_view w) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

// The plural of a form: its last word pluralised ("Native American" → "Native Americans").
std::string plural_of(const std::string& form, const text::Inflector& inflector) {
  const auto space = form.rfind(' ');
  if (space == std::string::npos) return inflector.pluralize(form);
  return form.substr(0, space + 1) + inflector.pluralize(form.substr(space + 1));
}

// A word without the dot the tokeniser leaves on a sentence's last word ("man.").
std::string_view without_final_dot(std::string_view w) {
  return w.size() > 1 && w.back() == '.' ? w.substr(0, w.size() - 1) : w;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

GroupWords::GroupWords(const SensitiveAttribute& attribute, const text::Inflector& inflector,
                       const text::LinguaTables& tables) {
  const std::size_t n_groups = attribute.groups.size();
  targets_ = attribute.targets;
  auto& adjectives = rows_[static_cast<std::size_t>(GroupForm::kAdjective)];
  auto& nouns = rows_[static_cast<std::size_t>(GroupForm::kNoun)];
  auto& plurals = rows_[static_cast<std::size_t>(GroupForm::kPlural)];
  if (!attribute.uses_gender_finder) {
    std::vector<std::string> active;
    for (const auto& g : attribute.groups) active.push_back(g.active);
    adjectives.push_back(std::move(active));
    adjectives.insert(adjectives.end(), attribute.adjectives.begin(), attribute.adjectives.end());
    nouns = attribute.nouns;
    plurals = attribute.plurals;
    // The plurals of the noun rows, after the file's own plural rows.
    for (const auto& row : attribute.nouns) {
      std::vector<std::string> p(n_groups);
      for (std::size_t g = 0; g < n_groups; ++g) {
        if (!row[g].empty()) p[g] = plural_of(row[g], inflector);
      }
      plurals.push_back(std::move(p));
    }
  }
  for (std::size_t kind = 0; kind < 3; ++kind) {
    for (std::size_t r = 0; r < rows_[kind].size(); ++r) {
      for (std::size_t g = 0; g < n_groups; ++g) {
        const std::string& w = rows_[kind][r][g];
        if (w.empty()) continue;
        const std::string key = normalise(w);
        auto& refs = keys_[key];
        const bool have_kind = std::any_of(refs.begin(), refs.end(), [&](const FormRef& f) {
          return static_cast<std::size_t>(f.kind) == kind;
        });
        if (!have_kind) refs.push_back({static_cast<GroupForm>(kind), r, g});
        max_words_ = std::max(max_words_, word_count(key));
      }
    }
  }
  for (const auto* list : {&attribute.excepts, &attribute.others}) {
    for (const auto& phrase : *list) {
      Except e;
      e.other = list == &attribute.others;
      std::string_view rest = phrase;
      while (!rest.empty()) {
        const auto space = rest.find(' ');
        e.words.emplace_back(rest.substr(0, space));
        if (space == std::string_view::npos) break;
        rest.remove_prefix(space + 1);
      }
      excepts_.push_back(std::move(e));
    }
  }
  tag_class_.assign(tables.n_tags(), kOther);
  plural_tag_.assign(tables.n_tags(), false);
  for (std::size_t t = 0; t < tables.n_tags(); ++t) {
    const auto name = tables.tag_name(static_cast<text::TagId>(t));
    auto starts = [&](std::string_view p) { return name.substr(0, p.size()) == p; };
    TagClass c = kOther;
    if (starts("jj"))
      c = kAdjective;
    else if (starts("nnp"))
      c = kProperNoun;
    else if (starts("nn"))
      c = kNoun;
    else if (name == "vbg" || name == "vbn")
      c = kParticiple;
    else if (starts("vb") || name == "md")
      c = kVerb;
    else if (name == "det" || name == "prps" || name == "pdt")
      c = kDeterminer;
    else if (name == "cc")
      c = kConjunction;
    else if (starts("rb"))
      c = kAdverb;
    else if (starts("pp") || name == "lrb" || name == "rrb")
      c = kPunctuation;
    else if (name == "in" || name == "to")
      c = kPreposition;
    else if (name == "cd")
      c = kNumber;
    tag_class_[t] = c;
    plural_tag_[t] = name == "nns" || name == "nnps";
  }
}

std::string GroupWords::why_not(std::size_t first, std::size_t end,
                                const std::vector<FormRef>& refs, const text::TaggedText& tagged,
                                const GroupWordContext& c, GroupForm* use) const {
  const auto& words = *c.words;
  const auto& sentence_of = *c.sentence_of;
  const std::size_t n = tagged.tokens.size();
  bool can_be_adjective = false, can_be_singular = false, can_be_plural = false;
  for (const auto& f : refs) {
    can_be_adjective |= f.kind == GroupForm::kAdjective;
    can_be_singular |= f.kind == GroupForm::kNoun;
    can_be_plural |= f.kind == GroupForm::kPlural;
  }
  auto in_sentence = [&](std::size_t t) { return t < n && sentence_of[t] == sentence_of[first]; };
  auto cls = [&](std::size_t t) { return tag_class_[tagged.tags[t]]; };
  auto bare = [&](std::size_t t) { return without_final_dot(words[t]); };
  // A noun WordNet does not know that ends in "-ed" is the tagger's verb ("The Buddhist
  // meditated").
  const auto verb_like = [&](std::size_t t) {
    const std::string_view w = bare(t);
    return c.known_noun && !c.known_noun(t) && w.size() > 3 && w.substr(w.size() - 2) == "ed";
  };
  // A noun: the tagger's, unless it is verb-like, and not a noun of time after "last",
  // "next", …
  auto is_noun = [&](std::size_t t) {
    if (!in_sentence(t) || words[t] == "'s" || words[t] == "'") return false;
    if (among(kTimeNouns, bare(t)) && t > 0 && among(kTimeDeterminers, words[t - 1])) return false;
    // In text whose case says nothing the tagger's proper nouns are guesses too.
    if (cls(t) == kProperNoun && c.case_informative) return true;
    return (cls(t) == kNoun || cls(t) == kProperNoun) && !verb_like(t);
  };
  auto group_word = [&](std::size_t t) {
    return in_sentence(t) && keys_.count(normalise(words[t])) > 0;
  };
  auto plural_at = [&](std::size_t t) { return plural_tag_[tagged.tags[t]]; };
  // A phrase of the file's `except` list around the word ("an old friend", "as the straight
  // man").
  for (const auto& [phrase, other] : excepts_) {
    for (std::size_t at = first + 1 > phrase.size() ? first + 1 - phrase.size() : 0;
         at <= first && at + phrase.size() <= n; ++at) {
      if (at + phrase.size() < end) continue;
      bool same = true;
      for (std::size_t k = 0; k < phrase.size() && same; ++k)
        same = in_sentence(at + k) && bare(at + k) == phrase[k];
      if (!same) continue;
      return other ? std::string(kOtherGroup) + ": '" + joined(phrase) + "'"
                   : "not a group here: '" + joined(phrase) + "' (except)";
    }
  }
  // An age in years: "a 60 year old man", "a 4yr old daughter".
  if (first > 0 && in_sentence(first - 1)) {
    std::string_view unit = bare(first - 1);
    while (!unit.empty() && ((unit.front() >= '0' && unit.front() <= '9') || unit.front() == '-'))
      unit.remove_prefix(1);
    if (among(kAgeUnits, unit)) return "not a group here: an age in " + std::string(unit);
  }
  // A colour among colours: "the powder blues and sun-splashed whites of tunis", "reds ,
  // whites and blues" (not "blacks and whites", two groups).
  {
    static constexpr std::array<std::string_view, 26> kColours = {
        "blue",   "blues",  "red",     "reds",    "green",  "greens",  "brown",
        "browns", "grey",   "greys",   "gray",    "grays",  "yellow",  "yellows",
        "pink",   "pinks",  "purple",  "purples", "orange", "oranges", "gold",
        "golds",  "silver", "silvers", "pastels", "neons"};
    auto colour_at = [&](std::size_t t) { return in_sentence(t) && among(kColours, bare(t)); };
    auto joiner = [&](std::size_t t) {
      return in_sentence(t) && (words[t] == "and" || words[t] == "or" || words[t] == ",");
    };
    // The colour may have its own modifiers: look back over up to three words for it.
    bool joined_colour = joiner(end) && (colour_at(end + 1) || colour_at(end + 2));
    for (std::size_t k = first; k > 0 && k + 4 > first && !joined_colour; --k) {
      if (joiner(k - 1) && k >= 2 && colour_at(k - 2)) joined_colour = true;
      if (!in_sentence(k - 1)) break;
    }
    if (joined_colour) return "not a group here: a colour among colours";
  }
  // Over adjectives, also joined ones ("a young gay man", "gay and lesbian children", "black
  // and white photography"), to the noun the word may modify.
  std::size_t j = end;
  while (in_sentence(j)) {
    if ((cls(j) == kAdjective && !is_noun(j)) || (group_word(j) && !is_noun(j))) {
      ++j;
    } else if (cls(j) == kConjunction && in_sentence(j + 1) &&
               (group_word(j + 1) || (cls(j + 1) == kAdjective && !is_noun(j + 1)))) {
      j += 2;
    } else {
      break;
    }
  }
  if (is_noun(j)) {
    if (!can_be_adjective) {
      // A plural noun rarely modifies one: the tagger's noun after it is a verb ("Muslims
      // pray").
      if (j == end && !can_be_plural) return "not a group here: modifies '" + words[j] + "'";
      *use = can_be_plural ? GroupForm::kPlural : GroupForm::kNoun;
      return "";
    }
    // The head is the last noun of a compound ("a white police officer", not "the British
    // gangster movie"); a proper noun in it is a name or a title ("American Beauty", "Black
    // Friday"), except in text whose case says nothing (lower-cased or all capitals).
    // A plural after a singular is the tagger's verb ("an american soldier returns home").
    std::size_t head = j;
    while (is_noun(head + 1) && !plural_at(head) &&
           !(plural_at(head + 1) && cls(head + 1) == kNoun))
      ++head;
    for (std::size_t k = j; k <= head; ++k) {
      if (cls(k) == kProperNoun && c.case_informative)
        return "not a group here: part of the name '" + words[k] + "'";
    }
    if (!c.is_person(head, plural_at(head)) && !among(kPeopleNouns, bare(head)))
      return "not a group here: '" + std::string(bare(head)) + "' is not a person";
    // A singular person with nothing determining it, over the modifiers before the word
    // (also joined ones: "a talented and young actor", "a 60 year old black man"), is a name or
    // a title ("secondary to american psycho"); a people noun may stand bare.
    if (!plural_at(head) && !among(kPeopleNouns, bare(head))) {
      std::size_t d = first;
      while (
          d > 0 && in_sentence(d - 1) &&
          (cls(d - 1) == kAdjective || cls(d - 1) == kParticiple || cls(d - 1) == kAdverb ||
           cls(d - 1) == kNumber || group_word(d - 1) || words[d - 1] == "-" ||
           (cls(d - 1) == kNoun && !among(kDeterminers, words[d - 1])) ||
           ((cls(d - 1) == kConjunction || words[d - 1] == ",") && d >= 2 && in_sentence(d - 2) &&
            (cls(d - 2) == kAdjective || cls(d - 2) == kParticiple || cls(d - 2) == kNoun ||
             group_word(d - 2)))))
        --d;
      const bool determined =
          d > 0 && in_sentence(d - 1) &&
          (among(kDeterminers, words[d - 1]) || cls(d - 1) == kNumber || words[d - 1] == "'s");
      if (!determined)
        return "not a group here: a singular '" + std::string(bare(head)) +
               "' without a determiner is a name or a title";
    }
    *use = GroupForm::kAdjective;
    return "";
  }
  // A determiner, possessive or number before it, over adjectives other than comparatives
  // ("a devout Muslim", "their estranged gay …"; not "any more gay").
  std::size_t d = first;
  while (d > 0 && in_sentence(d - 1) &&
         ((cls(d - 1) == kAdjective && !among(kComparatives, words[d - 1])) ||
          cls(d - 1) == kParticiple))
    --d;
  const bool determined =
      d > 0 && in_sentence(d - 1) &&
      (among(kDeterminers, words[d - 1]) || cls(d - 1) == kNumber || words[d - 1] == "'s");
  // A singular noun heads its phrase: no noun or participle after it ("the same teenage
  // american road-trip drek", "the american filmmaking scene").
  // (An opening quote right after it is the tokeniser's reading of an apostrophe: "the gay
  // '70s".)
  const bool heads_phrase = !in_sentence(end) ||
                            (words[end] != "`" && cls(end) != kNoun && cls(end) != kProperNoun &&
                             cls(end) != kParticiple) ||
                            (cls(end) == kNoun && verb_like(end));
  // A noun: a plural ("Jews", "teenagers"; one spelt like the adjective only after a
  // determiner or number: "the French", "two Chinese"), or a singular after a determiner;
  // "she is Muslim" is the adjective.
  // A plural spelt like the adjective is no plural after a singular determiner ("a Polish
  // immigrant" the tagger did not read as a noun phrase).
  static constexpr std::array<std::string_view, 7> kSingularDeterminers = {
      "a", "an", "this", "that", "every", "each", "another"};
  const bool singular_determiner =
      determined && among(kSingularDeterminers, words[d - 1]) && can_be_adjective;
  if (can_be_plural && (!can_be_adjective || determined) && !singular_determiner) {
    *use = GroupForm::kPlural;
    return "";
  }
  if (can_be_singular && heads_phrase && (determined || !can_be_adjective)) {
    *use = GroupForm::kNoun;
    return "";
  }
  if (!can_be_adjective) return "not a group here: no noun use";
  // "the elderly are", "the young and the old": "the" before, then a verb, a preposition, a
  // conjunction not joining it to a modifier, punctuation or "who".
  if (first > 0 && in_sentence(first - 1) && words[first - 1] == "the") {
    if (!in_sentence(end)) {
      *use = GroupForm::kAdjective;
      return "";
    }
    const TagClass next = cls(end);
    const bool joined_to_modifier = next == kConjunction && in_sentence(end + 1) &&
                                    (cls(end + 1) == kAdjective || is_noun(end + 1));
    const bool ends_phrase = next == kVerb || next == kPreposition ||
                             (next == kPunctuation && words[end] != "`") ||
                             (next == kConjunction && !joined_to_modifier) || words[end] == "who" ||
                             words[end] == "that";
    if (ends_phrase) {
      *use = GroupForm::kAdjective;
      return "";
    }
    return "not a group here: 'the " + words[first] + "' before '" + words[end] + "'";
  }
  // The predicate of a person: "she is Muslim", "my neighbour was old", "a man who is gay",
  // over adverbs and other predicates joined to it ("is British, not American").
  std::size_t k = first;
  while (k > 0 && in_sentence(k - 1) &&
         (cls(k - 1) == kAdverb || group_word(k - 1) || words[k - 1] == "not" ||
          words[k - 1] == "n't" || words[k - 1] == "," || cls(k - 1) == kConjunction ||
          (cls(k - 1) == kAdjective && !among(kComparatives, words[k - 1]))))
    --k;
  // "came out as gay", "identifies as bisexual": the subject is before the verb.
  if (k > 1 && in_sentence(k - 2) && words[k - 1] == "as" && among(kAsPredicate, words[k - 2])) {
    std::size_t v = k - 2;
    if (words[v] == "out" && v > 0) --v;
    if (v > 0 && in_sentence(v - 1)) {
      const std::size_t subject = v - 1;
      if (among(kPersonalPronouns, words[subject]) || cls(subject) == kProperNoun ||
          (cls(subject) == kNoun && c.is_person(subject, plural_at(subject)))) {
        *use = GroupForm::kAdjective;
        return "";
      }
    }
  }
  if (k > 0 && in_sentence(k - 1) && among(kCopulas, words[k - 1])) {
    std::size_t s = k - 1;
    if (s > 1 && in_sentence(s - 1) && (words[s - 1] == "who" || words[s - 1] == "that")) --s;
    if (s > 0 && in_sentence(s - 1)) {
      const std::size_t subject = s - 1;
      const bool person = among(kPersonalPronouns, words[subject]) || cls(subject) == kProperNoun ||
                          (cls(subject) == kNoun && c.is_person(subject, plural_at(subject)));
      if (person) {
        *use = GroupForm::kAdjective;
        return "";
      }
      return "not a group here: says something of '" + words[subject] + "', not a person";
    }
  }
  return "not a group here: describes no person";
}

std::vector<GroupMention> GroupWords::find(std::string_view text, const text::TaggedText& tagged,
                                           const GroupWordContext& c,
                                           std::vector<RefusedGroupWord>& refused) const {
  std::vector<GroupMention> out;
  if (keys_.empty()) return out;
  const auto& words = *c.words;
  const auto& sentence_of = *c.sentence_of;
  const std::size_t n = tagged.tokens.size();
  for (std::size_t i = 0; i < n;) {
    std::size_t span = 0;
    const std::vector<FormRef>* refs = nullptr;
    std::string key;
    for (std::size_t k = 1; k <= max_words_ && i + k <= n; ++k) {
      if (sentence_of[i + k - 1] != sentence_of[i]) break;
      if (k > 1) key += ' ';
      key += normalise(words[i + k - 1]);
      if (const auto it = keys_.find(key); it != keys_.end()) {
        span = k;
        refs = &it->second;
      }
    }
    if (!refs) {
      ++i;
      continue;
    }
    GroupForm use = GroupForm::kAdjective;
    // A source group's word (of a list taken from data, not chosen sense by sense) that the
    // file capitalises names its group only where the text capitalises it too, when its case
    // says anything: "the polish on the table", "an afghan on the sofa".
    const FormRef& first_ref = refs->front();
    const std::string& spelt =
        rows_[static_cast<std::size_t>(first_ref.kind)][first_ref.row][first_ref.group];
    const std::string_view written = tagged.tokens[i].surface(text);
    const bool lower_case_proper = first_ref.group >= targets_ && c.case_informative &&
                                   !spelt.empty() && !written.empty() && spelt[0] >= 'A' &&
                                   spelt[0] <= 'Z' && written[0] >= 'a' && written[0] <= 'z';
    const std::string why = lower_case_proper
                                ? "not a group here: '" + std::string(written) +
                                      "' in lower case, where the group's word is capitalised"
                                : why_not(i, i + span, *refs, tagged, c, &use);
    const FormRef* chosen = &refs->front();
    for (const auto& f : *refs) {
      if (f.kind == use) {
        chosen = &f;
        break;
      }
    }
    if (!why.empty()) {
      refused.push_back({i, i + span, chosen->group, why, why.starts_with(kOtherGroup)});
    } else {
      GroupMention m;
      m.first = i;
      m.end = i + span;
      m.group = chosen->group;
      m.row = chosen->row;
      m.form = chosen->kind;
      m.hyphenated = span == 1 &&
                     tagged.tokens[i].surface(text).find('-') != std::string_view::npos &&
                     word_count(key) > 1;
      out.push_back(m);
    }
    i += span;
  }
  return out;
}

std::string GroupWords::other_phrase(const std::vector<std::string>& words) const {
  for (const auto& [phrase, other] : excepts_) {
    if (!other) continue;
    for (std::size_t at = 0; at + phrase.size() <= words.size(); ++at) {
      bool same = true;
      for (std::size_t k = 0; k < phrase.size() && same; ++k)
        same = without_final_dot(words[at + k]) == phrase[k];
      if (same) return joined(phrase);
    }
  }
  return "";
}

std::string GroupWords::replacement(const GroupMention& m, std::size_t g) const {
  const auto& rows = form(m.form);
  std::string word;
  if (m.row < rows.size() && g < rows[m.row].size()) word = rows[m.row][g];
  for (std::size_t r = 0; word.empty() && r < rows.size(); ++r) word = rows[r][g];
  if (word.empty() && m.form != GroupForm::kAdjective) {
    const auto& adjectives = form(GroupForm::kAdjective);
    if (!adjectives.empty() && !adjectives[0][g].empty())
      word = adjectives[0][g] + (m.form == GroupForm::kNoun ? " person" : " people");
  }
  if (m.hyphenated) std::replace(word.begin(), word.end(), ' ', '-');
  return word;
}

}  // namespace assay::fairness
