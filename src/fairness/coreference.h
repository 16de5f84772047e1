// Co-reference for gender perturbations: which gendered pronouns (he, him, his, himself; she,
// her, hers, herself) refer to which person mentioned in the text, and the pronoun's form for
// the other gender (object "her" → "him", possessive "her" → "his", "his" as a pronoun →
// "hers").
//
// The rule (docs/fairness.md, measured on the judged set): a pronoun refers to a singular
// person mention of a compatible gender — a noun of its own gender, a first name of its own
// gender, or a neutral noun (doctor, friend), which may be either. The candidates are the
// mentions of the pronoun's own gender before it in its own sentence, else in the sentence
// before, else in the rest of the kLookBack sentences before (all of them there: two women
// make "her" ambiguous); where there is none, the
// neutral ones of the nearest sentence that has any (its own sentence before it, else the
// sentences before, up to kLookBack); failing those, when it opens its sentence or stands in a
// clause that opens its sentence with a subordinating word, the mentions after the comma that
// ends that clause (cataphora: "Before she left, the bride ...", "She was late, the bride
// admitted"; not "barry convinces us he's a dangerous , unhinged guy who could have killed a
// president"). So a gendered mention wins over neutral ones ("The nurse called the girl and
// gave her a toy": her = the girl). "X of his/hers" never refers to X. An animal ("the dog")
// is a candidate of either gender. A noun that describes the pronoun or a name ("she was a
// woman", "John, an astronaut") is not a mention of its own. Mentions are grouped into
// entities (every mention of the same noun, or of the same name, is one person). One candidate
// entity: the pronoun is resolved to it. Several: it is ambiguous ("The king told the prince
// that he was wrong"), and a perturbation of any of them is not made. None: it refers to
// someone the text does not name, and no perturbation changes it. Plural mentions take
// ungendered pronouns (they, their) and are never candidates.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/gender_counterpart_finder.h"

namespace assay::fairness {

// How many sentences before its own a pronoun's antecedent is looked for.
inline constexpr std::size_t kLookBack = 3;
// How many sentences before its own the nearest mention of a pronoun's gender wins alone;
// beyond them every mention of that gender in the look-back window is a candidate.
inline constexpr std::size_t kRecent = 1;

enum class PronounForm { kSubject, kObject, kDeterminer, kIndependent, kReflexive };

struct GenderedPronoun {
  std::size_t token = 0;
  knowledge::Gender gender = knowledge::Gender::kNone;
  PronounForm form = PronounForm::kSubject;
  std::optional<std::size_t> not_token;  // a mention it cannot refer to ("friend" of "his")
  // The comma that ends the opening subordinate clause the pronoun stands in ("When he
  // arrived , the doctor"): only mentions after it may be its antecedent by cataphora.
  std::optional<std::size_t> clause_end;
};

struct PersonMention {
  std::size_t token = 0;
  std::size_t entity = 0;                               // mentions of one person share it
  knowledge::Gender gender = knowledge::Gender::kNone;  // kNone: neutral, either gender
  bool plural = false;
  // An animal: "he" or "she" as its owner pleases, so it counts among the mentions of either
  // gender (a pronoun's own-gender candidates), not only among the neutral ones.
  bool any_gender = false;
};

// The gendered pronoun `lower` (a lower-case token) is, if any. `before_nominal`: "her" /
// "his" determine what follows (a noun, or an adjective or number before one); otherwise
// "her" is an object and "his" an independent pronoun ("the choice was his").
std::optional<GenderedPronoun> classify_pronoun(std::string_view lower, std::size_t token,
                                                bool before_nominal);

// The pronoun of gender `to` in the form of `p` ("her" object → "him"), lower case.
std::string_view swap_pronoun(const GenderedPronoun& p, knowledge::Gender to);

// Stands among a pronoun's candidates for someone the text does not name: an earlier pronoun
// of its gender in its sentence has no antecedent, so this one may refer to that person too.
inline constexpr std::size_t kUnnamed = static_cast<std::size_t>(-1);

// For each pronoun (in `pronouns` order), the candidate entities under the rule above, sorted
// (kUnnamed last): one entity = resolved, several = ambiguous, none = unnamed. `sentence_of[t]` is
// token t's sentence; mentions and pronouns are in token order.
std::vector<std::vector<std::size_t>> resolve_pronouns(const std::vector<PersonMention>& mentions,
                                                       const std::vector<GenderedPronoun>& pronouns,
                                                       const std::vector<std::size_t>& sentence_of);

// Nouns that describe a person another word names: a predicate ("she was an ignorant,
// spiteful woman", "She's also a priest", "The king was a tyrant": he / she / a name / a gendered
// noun, a form of "be", "become", "remain" or "seem", adverbs, an age "at 22", a determiner,
// adjectives; the subject may stand before an ellipsis), an apposition after a name or a surname
// ("John Chrichton, an astronaut,", "Mr. Taylor, a writer of ghost stories"), a noun a name
// stands in apposition to ("the director , mark pellington ,"), a gendered noun before a first
// name ("actor oliver martinez", "evil uncle ralph"; not a capitalised name after a title, "Mr.
// Smith", where the title is what changes), a role or a likeness after "as a" / "like a" (the
// nearest person before it, unless their genders differ: a man playing a girl), what a person
// is turned into ("turns the marquis de sade into a dullard") and a member of a group named
// after a person ("Sean Astin (one of my favorite actors)").
// Such a noun is no antecedent of its own and is not perturbed alone; it follows its person.
struct DescribingNoun {
  std::size_t token = 0;
  bool plural = false;    // plurals describe no one here
  bool gendered = false;  // only a gendered noun is described by a first name after it
  knowledge::Gender gender = knowledge::Gender::kNone;  // a gendered noun's own
};

// What a describing noun describes: the token of the word that names the person, and whether
// it is a likeness ("improvise like a jazzman"), which stays as it is when it has no
// counterpart.
struct Description {
  std::size_t word = 0;
  bool likeness = false;
};

struct DescriptionContext {
  const std::vector<std::string>& words;        // lower case
  const std::vector<std::size_t>& sentence_of;  // token → sentence
  // A first name's token, and its surname's, → the first name's token.
  const std::map<std::size_t, std::size_t>& name_at;
  std::function<std::string_view(std::size_t)> tag;  // the tagger's tag name
  std::function<bool(std::size_t)> capitalised;
  // A word of the first-name lists read as a noun that the name rules did not take.
  std::function<bool(std::size_t)> unnamed_first_name;
  // A proper noun of normally cased text that is no first name ("Mr. Taylor, a writer").
  std::function<bool(std::size_t)> proper_noun;
  // The gender of a pronoun's or a first name's token (kNone: none or unknown).
  std::function<knowledge::Gender(std::size_t)> gender_of;
};

// For each noun, what it describes, or nullopt.
std::vector<std::optional<Description>> described_words(const std::vector<DescribingNoun>& nouns,
                                                        const DescriptionContext& c);

}  // namespace assay::fairness
