#include "fairness/person_context.h"

#include <functional>
#include <set>

#include "text/unicode_props.h"

namespace assay::fairness {
namespace {

bool lower_first(std::string_view w) {
  return !w.empty() && w[0] >= 'a' && w[0] <= 'z';
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Tags that may stand inside a noun phrase between its determiner and its head noun.
bool inside_noun_phrase(std::string_view tag) {
  return starts_with(tag, "jj") || starts_with(tag, "nn") || tag == "vbn" || tag == "vbg" ||
         starts_with(tag, "rb");
}

// Tags that determine a noun phrase: articles and other determiners, possessive pronouns and
// 's, numbers, "whose", predeterminers.
bool determines(std::string_view tag) {
  return tag == "det" || tag == "prps" || tag == "pos" || tag == "cd" || tag == "wps" ||
         tag == "pdt" || tag == "wdt";
}

// Words that determine a noun phrase whatever their tag (Lingua tags a sentence-initial "My"
// nnp).
bool determiner_word(std::string_view lower) {
  static const std::set<std::string_view> kWords = {
      "a",    "an",      "the",   "this",    "that",  "these", "those",  "my",      "your",
      "his",  "her",     "its",   "our",     "their", "every", "each",   "no",      "any",
      "some", "another", "which", "what",    "whose", "such",  "either", "neither", "one",
      "all",  "both",    "many",  "several", "few",   "much",  "more",   "most",    "whatever"};
  return kWords.count(lower) > 0;
}

}  // namespace

PersonContext::PersonContext(std::string_view text, const text::TaggedText& tagged,
                             const text::LinguaTables& tables,
                             const std::vector<bool>& sentence_start)
    : text_(text), tagged_(tagged), tables_(tables), sentence_start_(sentence_start) {
  bool lower_word = false, capital_start = false;
  for (std::size_t i = 0; i < tagged.tokens.size(); ++i) {
    const auto w = surface(i);
    lower_word |= lower_first(w);
    capital_start |= sentence_start[i] && capitalised(w);
  }
  case_informative_ = lower_word && capital_start;
}

std::string_view PersonContext::surface(std::size_t i) const {
  return tagged_.tokens[i].surface(text_);
}

std::string_view PersonContext::tag(std::size_t i) const {
  return tables_.tag_name(tagged_.tags[i]);
}

bool PersonContext::capitalised(std::string_view w) {
  return !w.empty() && w[0] >= 'A' && w[0] <= 'Z';
}

std::size_t PersonContext::phrase_start(std::size_t i) const {
  // Over adjectives, adverbs and modifier nouns, and a conjunction or comma between adjectives
  // ("the eponymous and fiercely atheistic hero"), at most kMaxPhraseTokens back.
  std::size_t j = i;
  while (j > 0 && i - j < kMaxPhraseTokens && !sentence_start_[j] && !determiner(j - 1)) {
    const auto t = tag(j - 1);
    // (Lingua tags unknown adjectives nn: "an ignorant, spiteful woman".)
    auto modifier = [&](std::size_t k) {
      return starts_with(tag(k), "jj") || (starts_with(tag(k), "nn") && lower_first(surface(k)));
    };
    // A comma joins adjectives only ("an ignorant, spiteful woman", the tagger reading an
    // adjective it does not know as a noun; not the list of titles "river's edge , dead man",
    // whose "edge" it knows).
    const bool joins_adjectives = (t == "cc" || t == "ppc") && j >= 2 && j < i &&
                                  !sentence_start_[j - 1] && modifier(j - 2) && modifier(j) &&
                                  (surface(j - 1) != "," || starts_with(tag(j - 2), "jj") ||
                                   !tables_.find_word(text::to_lower(surface(j - 2))));
    if (!inside_noun_phrase(t) && !joins_adjectives) break;
    --j;
  }
  return j;
}

bool PersonContext::determiner(std::size_t k) const {
  return determines(tag(k)) || determiner_word(text::to_lower(surface(k)));
}

bool PersonContext::conjunction(std::size_t k) const {
  const auto w = surface(k);
  return w == "and" || w == "or" || w == "&" || w == "/";
}

std::string PersonContext::noun_blocked(std::size_t i, bool plural, bool may_stand_bare,
                                        const std::function<bool(std::size_t)>& before_name) const {
  const std::size_t n = tagged_.tokens.size();
  const auto word = surface(i);
  if (case_informative_ && !sentence_start_[i] && capitalised(word) && !may_stand_bare)
    return "part of a name or title: capitalised inside a sentence";
  auto same_sentence = [&](std::size_t j) { return j < n && !sentence_start_[j]; };
  std::size_t j = phrase_start(i);
  // A noun joined to another by "and" / "or" shares its determiner ("the writer and director").
  while (j >= 2 && i - j < kMaxPhraseTokens && !sentence_start_[j] && !sentence_start_[j - 1] &&
         conjunction(j - 1) && starts_with(tag(j - 2), "nn"))
    j = phrase_start(j - 2);
  const bool determined = j > 0 && !sentence_start_[j] && determiner(j - 1);
  // Films named as examples are titles: "movies like the wanderers", "films such as
  // ghost dad".
  {
    const std::size_t k = determined ? j - 1 : j;  // the phrase's first token
    static const std::set<std::string_view> kWorks = {
        "movie",  "movies", "film",     "films",    "picture", "pictures", "flick",
        "flicks", "comedy", "comedies", "drama",    "dramas",  "thriller", "thrillers",
        "show",   "shows",  "series",   "classics", "entries", "sequels",  "remakes"};
    auto lower = [&](std::size_t t) { return text::to_lower(surface(t)); };
    if (k >= 2 && !sentence_start_[k] && !sentence_start_[k - 1] &&
        ((lower(k - 1) == "like" && kWorks.count(lower(k - 2))) ||
         (k >= 3 && !sentence_start_[k - 2] && lower(k - 1) == "as" && lower(k - 2) == "such" &&
          kWorks.count(lower(k - 3)))))
      return "a title: named as an example of a work ('" + lower(k - 2) + " " + lower(k - 1) + "')";
  }
  {
    const std::size_t k = determined ? j - 1 : j;  // the phrase's first token
    if (auto why = version_of_work(k, i + 1); !why.empty()) return why;
    auto lower = [&](std::size_t t) { return text::to_lower(surface(t)); };
    // "the original , killers from space": a bare plural in apposition to a work.
    static const std::set<std::string_view> kWorkNouns = {
        "original", "film",  "movie", "picture", "sequel", "remake", "prequel",
        "book",     "novel", "play",  "musical", "series", "show",   "episode"};
    if (plural && !determined && k >= 2 && !sentence_start_[k] && !sentence_start_[k - 1] &&
        surface(k - 1) == "," && kWorkNouns.count(lower(k - 2)))
      return "a title: in apposition to '" + lower(k - 2) + "'";
    // "the showmanship of clones ' last 45 minutes": a bare plural whose possessive owns a
    // part of a work.
    static const std::set<std::string_view> kWorkParts = {
        "minutes",    "minute", "hour",    "hours",      "act",      "acts",    "reel",
        "reels",      "scene",  "scenes",  "ending",     "climax",   "finale",  "script",
        "screenplay", "plot",   "premise", "soundtrack", "runtime",  "trailer", "storyline",
        "opening",    "frames", "half",    "sequel",     "dialogue", "cast"};
    if (plural && !determined && same_sentence(i + 2) && possessive(i + 1)) {
      std::size_t h = i + 2;
      while (h - i < kMaxPhraseTokens && same_sentence(h + 1) &&
             (starts_with(tag(h), "jj") || tag(h) == "cd"))
        ++h;
      if (kWorkParts.count(lower(h)))
        return "a title: its possessive owns the '" + lower(h) + "' of a work";
    }
  }
  // Nouns that denote something of their possessor's kind: "its predecessors", "its brethren"
  // are films.
  if (determined && text::to_lower(surface(j - 1)) == "its") {
    static const std::set<std::string_view> kSameKind = {
        "predecessor", "predecessors", "successor", "successors", "brethren", "brother", "brothers",
        "sister",      "sisters",      "sibling",   "siblings",   "cousin",   "cousins"};
    if (kSameKind.count(text::to_lower(word)))
      return "belongs to a thing: its " + text::to_lower(word);
  }
  // "it took 19 predecessors to get this ?": in a review, a predecessor or successor without a
  // person's possessive ("his predecessor", "the director's successor") is a work.
  {
    static const std::set<std::string_view> kOrder = {"predecessor", "predecessors", "successor",
                                                      "successors"};
    static const std::set<std::string_view> kPersonal = {"my",  "your",  "his", "her",
                                                         "our", "their", "'s",  "'"};
    const std::string before =
        j > 0 && !sentence_start_[j] ? text::to_lower(surface(j - 1)) : std::string();
    const bool possessive = kPersonal.count(before) || before.ends_with("'s") ||
                            (before.size() > 1 && before.ends_with("s'"));
    if (kOrder.count(text::to_lower(word)) && !possessive)
      return "a work: a " + text::to_lower(word) + " without a person's possessive";
  }
  // Words a review gives a work as often as a person ("malle's dud", "don't settle for this
  // imposter", "a winner for kids") name a person only before "who".
  {
    static const std::set<std::string_view> kVerdicts = {
        "dud",     "duds",    "impostor", "impostors",     "imposter",      "imposters", "winner",
        "winners", "loser",   "losers",   "charmer",       "charmers",      "stinker",   "stinkers",
        "keeper",  "sleeper", "knockout", "crowd-pleaser", "crowd-pleasers"};
    std::size_t k = i + 1;
    if (same_sentence(k) && surface(k) == ",") ++k;
    const bool who = same_sentence(k) &&
                     (text::to_lower(surface(k)) == "who" || text::to_lower(surface(k)) == "whose");
    if (kVerdicts.count(text::to_lower(word)) && !who)
      return "a verdict a review gives a work as often as a person: '" + text::to_lower(word) +
             "' without 'who'";
  }
  // "the genius of the work": a noun that also names a quality, of a work, is the quality.
  {
    static const std::set<std::string_view> kQualities = {"genius", "talent", "beauty", "wit"};
    static const std::set<std::string_view> kWorkNouns = {
        "work",       "film", "movie", "picture", "script",
        "screenplay", "book", "novel", "play",    "show"};
    auto lower = [&](std::size_t t) { return text::to_lower(surface(t)); };
    if (!plural && kQualities.count(lower(i)) && same_sentence(i + 3) && lower(i + 1) == "of" &&
        determiner(i + 2) && kWorkNouns.count(lower(i + 3)))
      return "a quality of a work: '" + lower(i) + " of the " + lower(i + 3) + "'";
  }
  // "a rustic , realistic , and altogether creepy tale": a singular that opens a list of
  // adjectives joined by commas and "and" / "or" before a noun is one of the adjectives.
  if (!plural && same_sentence(i + 2) && surface(i + 1) == "," && starts_with(tag(i + 2), "jj")) {
    std::size_t k = i + 2;
    bool adjective = false, joined = false;
    while (k - i < kMaxPhraseTokens && same_sentence(k) &&
           (starts_with(tag(k), "jj") || starts_with(tag(k), "rb") || surface(k) == "," ||
            conjunction(k))) {
      adjective |= starts_with(tag(k), "jj");
      joined |= conjunction(k);
      ++k;
    }
    if (adjective && joined && same_sentence(k) && starts_with(tag(k), "nn") &&
        !starts_with(tag(k - 1), "rb") && surface(k - 1) != ",")
      return "an adjective: it opens a list of adjectives before '" + text::to_lower(surface(k)) +
             "'";
  }
  // "a stumblebum of a movie": the noun qualifies the thing after "of a".
  if (same_sentence(i + 2) && j > 0 && text::to_lower(surface(i + 1)) == "of") {
    const auto a = text::to_lower(surface(i + 2));
    const auto det = text::to_lower(surface(j - 1));
    if ((a == "a" || a == "an") && (det == "a" || det == "an"))
      return "qualifies a thing: 'a X of a ...'";
  }
  // Persons take "who": "the killer which they have been waiting for", "wannabes , which was
  // written by" are films.
  {
    std::size_t k = i + 1;
    if (same_sentence(k) && surface(k) == ",") ++k;
    if (same_sentence(k) && text::to_lower(surface(k)) == "which")
      return "a thing: followed by 'which'";
  }
  // A bare plural after a relative pronoun and before no verb is itself the verb: "a plot that
  // rivals shakespeare", "acting that heralds something special" (not "the films that kids
  // love").
  if (plural && i > 0 && !sentence_start_[i] && same_sentence(i + 1) && j == i) {
    const auto before = text::to_lower(surface(i - 1));
    const auto next_tag = tag(i + 1);
    if ((before == "that" || before == "which" || before == "who") &&
        !starts_with(next_tag, "vb") && next_tag != "md")
      return "a verb: a bare plural after '" + before + "'";
  }
  if (const auto why = quoted_title(i); !why.empty()) return why;
  // "something of an impostor itself": the noun says what a thing is.
  for (std::size_t k = i + 1; k <= i + 2 && same_sentence(k); ++k) {
    if (text::to_lower(surface(k)) == "itself") return "a thing: followed by 'itself'";
  }
  // A bare plural after "in" with a number before it or a verb after it is a title: "in nine
  // queens .", "poetry in girls can't swim" (people after "in" take no verb of their own).
  std::size_t numbered = j;  // over numbers, which the phrase does not take in
  while (numbered > 0 && j - numbered < kMaxPhraseTokens && !sentence_start_[numbered] &&
         tag(numbered - 1) == "cd")
    --numbered;
  const bool bare = !determined || numbered < j;  // a number is its only determiner
  if (plural && bare && numbered > 0 && !sentence_start_[numbered] &&
      text::to_lower(surface(numbered - 1)) == "in") {
    bool counted = numbered < j;
    for (std::size_t k = j; k < i; ++k) counted |= tag(k) == "cd";
    const bool verb_after = same_sentence(i + 1) && (tag(i + 1) == "vbz" || tag(i + 1) == "vbd" ||
                                                     tag(i + 1) == "vbp" || tag(i + 1) == "md");
    if (counted || verb_after)
      return counted ? "a title: 'in' and a number before a bare plural"
                     : "a title: a bare plural after 'in' with a verb of its own";
  }
  // "girls gone wild", "boys gone bad": a bare plural before "gone" is a title or a headline.
  if (plural && !determined && same_sentence(i + 1) && text::to_lower(surface(i + 1)) == "gone")
    return "a title: a bare plural before 'gone'";
  if (plural && same_sentence(i + 1)) {
    const auto next = text::to_lower(surface(i + 1));
    if (next == "is" || next == "was" || next == "has" || next == "does")
      return "a title: a plural with a singular verb";
  }
  // "I'm not a firefighter": the speaker's own role, not a third person.
  if (determined && !plural && j >= 2) {
    const auto det = text::to_lower(surface(j - 1));
    std::size_t k = j - 2;
    while (k > 0 && j - k < kMaxPhraseTokens && !sentence_start_[k + 1] &&
           starts_with(tag(k), "rb"))
      --k;  // not, never
    const auto verb = text::to_lower(surface(k));
    if ((det == "a" || det == "an") && (verb == "am" || verb == "'m"))
      return "the speaker's own role: 'I am a ...'";
  }
  // "staying friends", "made enemies": a relation between the subject's people, whose gender
  // an adjective would not change.
  if (plural && !determined && i > 0 && !sentence_start_[i]) {
    static const std::set<std::string_view> kRelations = {
        "friends", "enemies", "rivals", "partners", "allies", "lovers", "pals", "buddies"};
    static const std::set<std::string_view> kVerbs = {
        "stay",   "stays",  "stayed",  "staying",  "remain", "remains", "remained", "remaining",
        "become", "became", "becomes", "becoming", "make",   "makes",   "made",     "making",
        "be",     "are",    "were",    "being",    "been",   "'re"};
    if (kRelations.count(text::to_lower(word)) && kVerbs.count(text::to_lower(surface(i - 1))))
      return "a relation, not people: '" + text::to_lower(surface(i - 1)) + " " +
             text::to_lower(word) + "'";
  }
  if (plural || determined) return {};
  // A modifier of a plural head stands in a bare plural phrase ("strong female characters").
  std::size_t head = i;
  while (head - i < kMaxPhraseTokens && same_sentence(head + 1) &&
         starts_with(tag(head + 1), "nn") && lower_first(surface(head + 1)))
    ++head;
  if (head != i && tag(head) == "nns") return {};
  // A title before a name ("director peter sheridan", "writer and director otar iosseliani").
  std::size_t last = i;
  while (last - i < kMaxPhraseTokens && same_sentence(last + 2) && conjunction(last + 1) &&
         starts_with(tag(last + 2), "nn"))
    last += 2;
  if (before_name(last)) return {};
  // A capitalised word after it is the name it stands before ("Uncle Bob", "Lady Grantham").
  const bool modifies = same_sentence(i + 1) && !capitalised(surface(i + 1)) &&
                        (starts_with(tag(i + 1), "nn") || starts_with(tag(i + 1), "jj"));
  if (!may_stand_bare || modifies)
    return "a name, title or mass use: a singular without a determiner";
  // A kinship word or title standing as a name takes nothing before it and no "of" after it:
  // "low rent godfather", "queen of the damned", "king of the hill" are titles.
  if (j < i) return "a title: a bare kinship word or title after modifiers";
  if (same_sentence(i + 1) && text::to_lower(surface(i + 1)) == "of")
    return "part of a title: '" + text::to_lower(word) + " of ...'";
  return {};
}

bool PersonContext::possessive(std::size_t k) const {
  const auto w = surface(k);
  return w == "'s" || w == "'" || w == "\u2019s" || w == "\u2019";
}

std::string PersonContext::version_of_work(std::size_t k, std::size_t after) const {
  static const std::set<std::string_view> kVersions = {
      "version",   "versions", "adaptation", "adaptations", "remake",      "remakes",
      "retelling", "parody",   "spoof",      "rip-off",     "reimagining", "reworking",
      "sequel",    "sequels",  "prequel",    "update",      "knockoff",    "knock-off"};
  if (k < 2 || sentence_start_[k] || sentence_start_[k - 1]) return {};
  const auto prep = text::to_lower(surface(k - 1));
  const auto work = text::to_lower(surface(k - 2));
  const bool sequel = work == "sequel" || work == "sequels" || work == "prequel";
  if (!kVersions.count(work) || !(prep == "of" || (sequel && prep == "to"))) return {};
  if (after < tagged_.tokens.size() && !sentence_start_[after] && possessive(after)) return {};
  return "a title: after '" + work + " " + prep + "'";
}

std::string PersonContext::version_of_work(std::size_t i) const {
  static const std::set<std::string_view> kWorks = {"novel", "novels",  "book", "books",
                                                    "story", "stories", "play", "plays"};
  auto why = version_of_work(i, i + 1);
  // Over the full name (a middle initial, a surname) up to the first punctuation.
  for (std::size_t k = i + 1;
       !why.empty() && k <= i + 4 && k < tagged_.tokens.size() && !sentence_start_[k]; ++k) {
    if ((k <= i + 2 && possessive(k)) || kWorks.count(text::to_lower(surface(k)))) why.clear();
    const auto w = surface(k);
    if (w == "," || w == ";" || w == ":" || w == "(" || w == ")") break;
  }
  return why;
}

bool PersonContext::quote(std::size_t k) const {
  const auto& t = tagged_.tokens[k].text;
  return t == "``" || t == "''" || t == "[" || t == "]";
}

std::string PersonContext::quoted_title(std::size_t i) const {
  const std::size_t n = tagged_.tokens.size();
  constexpr std::size_t kMaxInside = 5;
  std::size_t open = i;  // the first word inside the marks
  while (!(open > 0 && quote(open - 1))) {
    if (open == 0 || sentence_start_[open] || i - open + 1 >= kMaxInside) return {};
    --open;
  }
  std::size_t close = i;  // the last
  while (!(close + 1 < n && quote(close + 1))) {
    if (close + 1 >= n || sentence_start_[close + 1] || close - open + 1 >= kMaxInside) return {};
    ++close;
  }
  for (std::size_t k = open; k <= close; ++k) {
    const auto t = tag(k);
    // A verb or punctuation makes it speech ("Good evening, sir.").
    if (starts_with(t, "vb") || t == "md" || starts_with(t, "pp")) return {};
  }
  return "a title: a short quotation or bracket without a verb";
}

std::string PersonContext::common_word_name(std::size_t i) const {
  const auto word = surface(i);
  if (!capitalised(word) || !tables_.find_word(text::to_lower(word))) return {};
  if (i + 1 < tagged_.tokens.size() && !sentence_start_[i + 1]) {
    const auto next_tag = tag(i + 1);
    if (starts_with(next_tag, "vb") || next_tag == "md" || capitalised(surface(i + 1))) return {};
  }
  return "a common word: no verb or surname after the name";
}

}  // namespace assay::fairness
