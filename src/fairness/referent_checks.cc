#include "fairness/referent_checks.h"

#include <algorithm>
#include <array>

namespace assay::fairness {
namespace {

using Words = std::initializer_list<std::string_view>;

bool one_of(std::string_view w, std::span<const std::string_view> list) {
  return std::find(list.begin(), list.end(), w) != list.end();
}
bool one_of(std::string_view w, Words list) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

// The word before the candidate in its sentence, or "".
std::string_view before(const TokenView& v, std::size_t at, std::size_t back = 1) {
  if (at < back || !v.same_sentence(at - back, at)) return {};
  return v.words[at - back];
}

std::string_view after(const TokenView& v, std::size_t at, std::size_t ahead = 1) {
  if (!v.same_sentence(at, at + ahead)) return {};
  return v.words[at + ahead];
}

// A determiner that picks out particular people: the, a demonstrative, a possessive, a number.
bool definite_determiner(const TokenView& v, std::size_t at) {
  const auto d = before(v, at);
  return one_of(d, {"the", "this", "that", "these", "those", "my", "your", "his", "her", "our",
                    "their", "its", "'s", "'", "both"}) ||
         (!d.empty() && v.tag(at - 1) == "cd");
}

// A possessive, demonstrative or number: particular people even in a general statement ("my
// kids always…", "those two always…").
bool anchored(const TokenView& v, std::size_t at) {
  return definite_determiner(v, at) && before(v, at) != "the";
}

bool quantified(const TokenView& v, const Candidate& c) {
  static constexpr std::string_view kQuantifiers[] = {"each",     "every",  "any",    "all",
                                                      "no",       "most",   "many",   "whichever",
                                                      "whatever", "either", "neither"};
  const auto d = before(v, c.at);
  return one_of(d, kQuantifiers) || (d == "the" && one_of(before(v, c.at, 2), {"all", "most"}));
}

// The noun is the subject of a verb in the past or progressive, right after it (an adverb
// between): "Firefighters rescued a couple", "Boys are playing". An event, whose bare plural
// names the people who took part.
bool episodic(const TokenView& v, std::size_t at) {
  std::size_t t = at + 1;
  if (v.tag(t).starts_with("rb")) ++t;
  if (!v.same_sentence(at, t)) return false;
  const auto tag = v.tag(t);
  if (tag == "vbd") return true;
  return (v.words[t] == "are" || v.words[t] == "'re") && v.tag(t + 1) == "vbg";
}

// "a group of students", "a large family of carpenters": the collective before "of" picks out
// the people, as a determiner would.
bool of_a_collective(const TokenView& v, std::size_t at) {
  static constexpr std::string_view kCollectives[] = {
      "group",   "family", "team",  "crowd",     "couple",  "pair",     "bunch",
      "handful", "dozen",  "band",  "class",     "gang",    "party",    "troop",
      "squad",   "crew",   "panel", "circle",    "busload", "houseful", "roomful",
      "line",    "row",    "choir", "delegation"};
  return before(v, at) == "of" && one_of(before(v, at, 2), kCollectives);
}

bool bare_plural(const TokenView& v, const Candidate& c) {
  return c.plural && !definite_determiner(v, c.at) && !episodic(v, c.at) &&
         !of_a_collective(v, c.at);
}

bool habitual(const TokenView& v, const Candidate& c) {
  static constexpr std::string_view kHabitual[] = {
      "usually",       "typically",  "generally",  "normally", "often",
      "always",        "commonly",   "frequently", "rarely",   "seldom",
      "traditionally", "invariably", "tend",       "tends",    "whenever"};
  if (anchored(v, c.at)) return false;
  for (std::size_t t = 0; t < v.size(); ++t) {
    if (v.same_sentence(t, c.at) && one_of(v.words[t], kHabitual)) return true;
  }
  return false;
}

// "a user can…", "users should…", "Can a tenant refuse…": what anyone of a kind may or must do.
bool modal_statement(const TokenView& v, const Candidate& c) {
  static constexpr std::string_view kModals[] = {"can", "cannot", "ca",    "should", "must",
                                                 "may", "might",  "ought", "shall"};
  if (anchored(v, c.at)) return false;
  const auto modal = [&](std::string_view w) { return one_of(w, kModals); };
  if (modal(after(v, c.at)) || (v.tag(c.at + 1).starts_with("rb") && modal(after(v, c.at, 2))))
    return true;
  // A question: the modal opens the sentence, the noun (or its article) follows it.
  const std::size_t np = one_of(before(v, c.at), {"a", "an", "the"}) ? c.at - 1 : c.at;
  if (np == 0 || !v.same_sentence(np - 1, np)) return false;
  const std::size_t first = np - 1;
  return (first == 0 || !v.same_sentence(first - 1, first)) && modal(v.words[first]);
}

// "called me an idiot", "such a fool", "what a jerk".
bool epithet(const TokenView& v, const Candidate& c) {
  const auto d = before(v, c.at);
  if (d != "a" && d != "an") return false;
  if (one_of(before(v, c.at, 2), {"such", "what"})) return true;
  return one_of(before(v, c.at, 2), {"me", "you", "him", "her", "us", "them", "it"}) &&
         one_of(before(v, c.at, 3), {"call", "calls", "called", "calling"});
}

// "wants to become a nurse": a role the text names, not a person it speaks of.
bool role_to_become(const TokenView& v, const Candidate& c) {
  const auto d = before(v, c.at);
  return (d == "a" || d == "an") &&
         one_of(before(v, c.at, 2), {"become", "becomes", "became", "becoming"});
}

// "the kids' menu", "women's shoes": a plural possessive before a noun names a kind of thing.
bool kind_possessive(const TokenView& v, const Candidate& c) {
  const auto next = after(v, c.at);
  return c.plural && (next == "'" || next == "'s") && !anchored(v, c.at) &&
         v.tag(c.at + 2).starts_with("nn");
}

// "the viewer", "readers", "the user": whoever watches, reads or uses the thing, not a person
// the text speaks of ("my readers" are the writer's own).
bool audience(const TokenView& v, const Candidate& c) {
  static constexpr std::string_view kAudience[] = {
      "viewer",    "viewers",   "reader",     "readers",  "moviegoer", "moviegoers", "filmgoer",
      "filmgoers", "spectator", "spectators", "listener", "listeners", "user",       "users"};
  return one_of(v.words[c.at], kAudience) && !anchored(v, c.at);
}

// "one of those pictures where the hero …", "the kind of film in which the wife …": the people
// of a kind of story, not of this one.
bool kind_of_story(const TokenView& v, const Candidate& c) {
  if (anchored(v, c.at)) return false;
  for (std::size_t t = c.at; t >= 2 && v.same_sentence(t - 2, c.at) && c.at - t < 16; --t) {
    const auto a = v.words[t - 2], b = v.words[t - 1];
    if ((a == "one" && b == "of" && v.words[t] == "those") ||
        (a == "the" && one_of(b, {"kind", "sort", "type"}) && v.words[t] == "of"))
      return true;
  }
  return false;
}

constexpr std::array kInsertion = {
    Check{"quantified", "a quantified noun (each, every, any, all, most, no) speaks of everyone",
          quantified},
    Check{"bare-plural", "a plural without a determiner speaks of people in general", bare_plural},
    Check{"habitual",
          "a habitual statement (usually, typically, always) speaks of people in general",
          habitual},
    Check{"modal-statement", "what such a person can, may or should do speaks of people in general",
          modal_statement},
    Check{"epithet", "name-calling: a group inserted makes another insult", epithet},
    Check{"role", "a role someone would become, not a person the text speaks of", role_to_become},
    Check{"kind-possessive", "a plural possessive before a noun names a kind of thing",
          kind_possessive},
    Check{"audience", "whoever watches, reads or uses the thing, not a person the text speaks of",
          audience},
    Check{"kind-of-story", "a person of a kind of story (one of those films where …)",
          kind_of_story},
};

// "his wife", "her husband", "her boyfriend": the possessive is the other half of the couple,
// who keeps a gender, so the swap makes another couple.
bool partner_of_named(const TokenView& v, const Candidate& c) {
  static constexpr std::string_view kPartners[] = {
      "wife",       "wives",       "husband", "husbands", "boyfriend", "boyfriends",
      "girlfriend", "girlfriends", "fiance",  "fiancee",  "fiancé",    "fiancée",
      "bride",      "groom",       "widow",   "widower"};
  if (!one_of(v.words[c.at], kPartners)) return false;
  const auto d = before(v, c.at);
  return d == "his" || d == "her";
}

constexpr std::array kGenderSwap = {
    Check{"partner",
          "one of a couple whose other half the text names: the swap makes another couple",
          partner_of_named},
};

bool day_or_month(const TokenView& v, const Candidate& c) {
  static constexpr std::string_view kCalendar[] = {
      "january",   "february",  "march",   "april",    "may",      "june",   "july",
      "august",    "september", "october", "november", "december", "monday", "tuesday",
      "wednesday", "thursday",  "friday",  "saturday", "sunday"};
  // "June Carter": a surname after it makes it a name.
  return one_of(v.words[c.at], kCalendar) &&
         !(v.same_sentence(c.at, c.at + 1) && v.capitalised(c.at + 1) &&
           v.tag(c.at + 1).starts_with("nnp"));
}

// "eggs Benedict": a capitalised name after a lower-case common noun (in lower-cased text, where
// "the talented robert" tags "talented" a noun, the case cannot tell).
bool after_thing_noun(const TokenView& v, const Candidate& c) {
  const auto prev = before(v, c.at);
  if (prev.empty() || !v.capitalised(c.at) || v.capitalised(c.at - 1)) return false;
  // A word of letters (not a stop the tagger calls a noun); "the main character Travis" names
  // a person by the role the story gives them.
  if (!std::all_of(prev.begin(), prev.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; }) ||
      one_of(prev, {"character", "characters", "role", "roles"}))
    return false;
  const auto t = v.tag(c.at - 1);
  return (t == "nn" || t == "nns") && !v.person_noun(c.at - 1);
}

bool place_word_after(const TokenView& v, const Candidate& c) {
  static constexpr std::string_view kPlaces[] = {
      "park",   "street",     "avenue",     "road",    "square",   "airport",   "station",
      "hall",   "university", "college",    "school",  "church",   "cathedral", "hospital",
      "bridge", "county",     "river",      "lake",    "mountain", "island",    "bay",
      "beach",  "falls",      "valley",     "city",    "tower",    "center",    "centre",
      "hotel",  "inn",        "restaurant", "cafe",    "theatre",  "theater",   "stadium",
      "arena",  "library",    "museum",     "gardens", "lane",     "drive",     "boulevard",
      "harbor", "harbour",    "creek",      "heights", "springs"};
  return v.same_sentence(c.at, c.at + 1) && v.capitalised(c.at + 1) &&
         one_of(v.words[c.at + 1], kPlaces);
}

// "lunch at Wendy's", "they beat Wendy's by a mile": a possessive that owns nothing names a shop
// or a restaurant (not "a friend of Mary's", nor "Mary's new car").
bool business_possessive(const TokenView& v, const Candidate& c) {
  if (!one_of(after(v, c.at), {"'s", "'"}) || before(v, c.at) == "of") return false;
  if (!v.same_sentence(c.at, c.at + 2)) return true;
  const auto next = v.tag(c.at + 2);
  return !next.starts_with("nn") && !next.starts_with("jj") && !next.starts_with("vbg") &&
         next != "cd" && next != "prp$";
}

constexpr std::array kName = {
    Check{"calendar", "a day or a month, not a name", day_or_month},
    Check{"thing-name", "after a common noun that is not a person: part of a thing's name",
          after_thing_noun},
    Check{"place-name", "before a place word: part of a place's name", place_word_after},
    Check{"business", "a shop or a restaurant named by its owner's possessive",
          business_possessive},
};

}  // namespace

std::span<const Check> insertion_checks() {
  return kInsertion;
}
std::span<const Check> gender_swap_checks() {
  return kGenderSwap;
}
std::span<const Check> name_checks() {
  return kName;
}

const Check* find_check(std::string_view name) {
  for (const auto list : {insertion_checks(), gender_swap_checks(), name_checks()}) {
    for (const auto& c : list) {
      if (c.name == name) return &c;
    }
  }
  return nullptr;
}

const Check* first_failed(std::span<const Check> checks, const TokenView& view, const Candidate& c,
                          const std::set<std::string, std::less<>>& disabled) {
  for (const auto& check : checks) {
    if (!disabled.count(check.name) && check.fails(view, c)) return &check;
  }
  return nullptr;
}

}  // namespace assay::fairness
