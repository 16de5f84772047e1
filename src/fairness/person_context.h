// PersonContext: whether a word that can name a person (a person noun, a first name) names one
// where it stands in a text, or is part of a title or a name, or says something of a thing.
// The lexicon and the knowledge graph judge words; these rules judge places, and each answer
// not to perturb comes with its reason (the perturbator lists it among the dropped candidates).
// Measured on the judged sets (docs/fairness.md, "Where a person noun names a person"):
//  - a capitalised noun inside a sentence of normally cased text is part of a name or a title
//    ("Gilmore Girls", "The League of Gentlemen");
//  - a singular noun with no determiner, possessive or number before it (over its adjectives
//    and modifier nouns) is a name, a title or a mass use ("borstal boy represents", "birthday
//    girl is", "savvy about celebrity", "glutton for punishment"), unless it stands before a
//    name ("director peter sheridan") or is a kinship word or a title used as a name ("Mom
//    said", "Lady Grantham") and does not modify a noun after it; nouns joined by "and" / "or"
//    share a determiner and a name ("the writer and director");
//  - "its predecessors", "its successor", "its brethren" are things of the possessor's kind
//  (films), and so is a predecessor or successor without a person's possessive ("it took 19
//  predecessors");
//  - a plural followed by a singular verb is a title ("Watchers is a fun movie"); so is a noun
//    inside a short quotation or bracket without a verb (`" ichi the killer "`), and a noun
//    followed by "which" or "itself" names a thing ("the killer which they have been waiting
//    for", "something of an impostor itself");
//  - a bare plural relation after a linking verb ("staying friends", "made enemies") names
//    no one new;
//  - "a X of a / an ..." qualifies a thing ("a stumblebum of a movie"), and a singular that
//    opens a list of adjectives before a noun is one of them ("a rustic , realistic , and creepy
//    tale");
//  - a phrase after "version of", "remake of", "sequel to" and the like names a work, unless a
//    possessive follows ("the cliffsnotes version of nicholas nickleby"); so does a bare plural
//    in apposition to a work ("the original , killers from space") or one whose possessive
//    owns a part of a work ("the showmanship of clones ' last 45 minutes");
//  - a first name after a capitalised word that is neither a name nor a title, or before a
//    capitalised "The" or "Of", inside a sentence, is part of a title ("Dirty Harry", "Buffy
//    The Vampire Slayer"); a capitalised first name that is also a
//    common word needs a verb or a capitalised word after it ("Carry on" is not a name).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "text/lingua_tables.h"
#include "text/pos_tagger.h"

namespace assay::fairness {

class PersonContext {
 public:
  // All references must outlive the object. `sentence_start[t]`: token t begins a sentence.
  PersonContext(std::string_view text, const text::TaggedText& tagged,
                const text::LinguaTables& tables, const std::vector<bool>& sentence_start);

  // Why the person noun at token `i` does not name a person here (empty: it does). `plural`:
  // its number; `may_stand_bare`: a kinship word or title of address, which may stand without
  // a determiner as a name ("Mom", "uncle"); `before_name(t)`: token t + 1 is a name.
  std::string noun_blocked(std::size_t i, bool plural, bool may_stand_bare,
                           const std::function<bool(std::size_t)>& before_name) const;

  // Why the first name at token `i` is not a person's name here (empty: it is). `is_name_or_title`
  // tells whether a capitalised word is itself a first name or a title of address.
  template <class IsNameOrTitle>
  std::string name_blocked(std::size_t i, IsNameOrTitle is_name_or_title) const {
    if (auto why = version_of_work(i); !why.empty()) return why;
    if (i == 0 || sentence_start_[i] || !case_informative_) return common_word_name(i);
    const auto before = surface(i - 1);
    if (capitalised(before) && !sentence_start_[i - 1] && !is_name_or_title(before))
      return "part of a title: after a capitalised word inside a sentence";
    if (i + 1 < tagged_.tokens.size() && !sentence_start_[i + 1] &&
        (surface(i + 1) == "The" || surface(i + 1) == "Of"))
      return "part of a title: before a capitalised '" + std::string(surface(i + 1)) + "'";
    return common_word_name(i);
  }

  // Whether capitalisation carries information: the text has words beginning in lower case and
  // capitalised sentence starts (not lower-cased like rt-polarity, not all capitals).
  bool case_informative() const { return case_informative_; }

  // Whether token k determines the noun phrase after it: an article or other determiner, a
  // possessive pronoun or 's, a number, "whose", a predeterminer.
  bool determiner(std::size_t k) const;

 private:
  std::string_view surface(std::size_t i) const;
  std::string_view tag(std::size_t i) const;
  static bool capitalised(std::string_view w);
  std::string common_word_name(std::size_t i) const;
  bool quote(std::size_t k) const;  // a quotation mark or a square bracket
  // Why the noun at token i is part of a title in quotation marks or square brackets (empty:
  // it is not): at most five words between the marks, none of them a verb or punctuation
  // (`" ichi the killer "`, "rescue [the funk brothers]"; not `"Good evening, sir."`).
  std::string quoted_title(std::size_t i) const;
  // Why the phrase that begins at token k names a work (empty: it does not): after "version
  // of", "adaptation of", "remake of", "sequel to" ("the cliffsnotes version of nicholas
  // nickleby"), unless a possessive stands at token `after` ("a remake of john carpenter's
  // film" names the director).
  std::string version_of_work(std::size_t k, std::size_t after) const;
  // The same for the first name at token i, unless a possessive or a work follows within its
  // full name ("an adaptation of Dean R. Koontz novel" names the author).
  std::string version_of_work(std::size_t i) const;
  bool possessive(std::size_t k) const;  // 's or a lone apostrophe
  // The first token of the noun phrase that ends at token i, before its determiner if any.
  // This walk and every other over a phrase stop after kMaxPhraseTokens tokens (a run of nouns
  // that long is no noun phrase, and walking it from each of its nouns would make a text of
  // such runs cost its length squared).
  std::size_t phrase_start(std::size_t i) const;
  static constexpr std::size_t kMaxPhraseTokens = 32;
  bool conjunction(std::size_t k) const;

  std::string_view text_;
  const text::TaggedText& tagged_;
  const text::LinguaTables& tables_;
  const std::vector<bool>& sentence_start_;
  bool case_informative_ = false;
};

}  // namespace assay::fairness
