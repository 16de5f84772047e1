// The perturbations of one text, built in the steps of the method (docs/fairness.md, "The
// perturbator"), one file each:
//   perturbation_builder.cc    the text read (tokens, tags, sentences, their fluency) and the
//                              people found in it (person nouns, group words, first names);
//   surface_realisation.cc     a proposed change written into the text: inflection, a/an,
//                              case, the changed spans, its fluency, the kept perturbations;
//   group_perturbations.cc     file attributes: group words, member nouns and names moved to
//                              each other group;
//   person_perturbations.cc    person nouns and first names changed with everything that
//                              refers to them (co-reference), or one noun at a time.
// Perturbator::perturb() runs them in that order. Internal to the perturbator's sources.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fairness/coreference.h"
#include "fairness/group_words.h"
#include "fairness/person_context.h"
#include "fairness/perturbator_internal.h"
#include "fairness/referent_checks.h"
#include "text/sentence_splitter.h"
#include "text/text_edit.h"

namespace assay::fairness {

// A change of the language model's words: words [from, end) of the text replaced by `words`.
struct LmChange {
  std::size_t from = 0, end = 0;
  std::vector<std::string> words;
};

// One proposed perturbation realised: the text edits and the word changes.
struct Realised {
  std::vector<text::TextEdit> edits;
  std::vector<LmChange> changes;  // in text order
  std::string new_word;           // as written at the first occurrence
};

struct Fluency {
  double value = 0;  // of the changed sentence (the least fluent one when several changed)
  double ratio = 0;  // to the same sentence of the original
};

// Words that change with a perturbation (pronouns, names): token → word, lower case, the
// token's case transferred.
using Replacements = std::vector<std::pair<std::size_t, std::string>>;

class PerturbationBuilder {
 public:
  // Reads the text: tokens, tags, sentences and their fluency (out().fluency).
  PerturbationBuilder(const Perturbator& perturbator, std::string_view text,
                      std::size_t max_perturbations);

  // The people of the text: person nouns, group words, member nouns and first names, with
  // the places that refuse them listed as dropped. False when there is nothing to perturb.
  bool find_people();
  // File attributes: every mention of a group moves to each other group at once; a text
  // without one has its group first names swapped.
  void perturb_groups();
  void perturb_group_names();
  // Person nouns and first names: with co-reference (gender) each person changes with every
  // word that refers to them; without it one noun (or every occurrence of it) at a time.
  void perturb_persons();
  void perturb_nouns();
  // The kept perturbations (the most fluent `max_per_input` with that cap, then at most
  // `max_perturbations`), in the order they were made.
  PerturbationSet finish();

  bool coreference() const { return coref_; }

 private:
  using NounInfo = Perturbator::NounInfo;

  // surface_realisation.cc
  bool is_article(std::size_t i) const;
  bool possessive_determiner(std::size_t i) const;
  // Whether the occurrence k may take an inserted adjective: its place in the phrase, then
  // the checks of referent_checks.h (a refusal by one is listed among the dropped).
  bool active_ok(std::size_t k) const;
  bool insertion_allowed(std::size_t k);
  TokenView token_view() const;
  // The edits for putting `phrase` (kind analogy: a counterpart lemma; active: an adjective) at
  // the given occurrences.
  Realised realise(MutationKind kind, const std::vector<std::size_t>& occs,
                   const std::string& phrase) const;
  void add_replacements(Realised& r, const Replacements& extra) const;
  Fluency fluency_of(const Realised& r) const;
  // Two words a text contrasts that a perturbation would make the same: the word, or "".
  std::string contrast_conflict(const Realised& r) const;
  std::string occ_word(std::size_t k) const;
  bool full() const;
  // `from`: the group the changed words named (none for an insertion).
  void emit(MutationKind kind, std::size_t group, std::optional<std::size_t> from,
            std::string old_word, const Realised& r, Fluency fluency, const std::string& evidence);
  void propose_analogy(const NounInfo& info, std::size_t g, const std::vector<std::size_t>& occs,
                       const Replacements& extra = {});
  void propose_active(std::size_t g, const std::vector<std::size_t>& occs,
                      const Replacements& extra = {});

  // person_perturbations.cc. Persons: every mention of the same noun (and number) is one, so
  // is every mention of the same first name.
  struct TextPerson {
    std::vector<std::size_t> occs;         // person-noun occurrences (indices of occ_*)
    std::vector<std::size_t> name_tokens;  // or the tokens of a first name
    std::string written;                   // the first mention as written
    std::set<std::string> surnames;        // a first name's, lower case
    std::vector<std::size_t> titles;       // titles of address before its surname ("Mr. Taylor")
    knowledge::Gender gender = knowledge::Gender::kNone;
  };
  struct TextPersons {
    std::vector<TextPerson> persons;
    std::map<std::string, std::size_t> person_of;  // key (lemma and number, or name) → person
    std::vector<PersonMention> mentions;           // in token order
    std::map<std::size_t, std::size_t> name_at;  // a first name's token, or its surname's → name
    // Nouns that describe a person another word names (coreference.h: "she was a … woman",
    // "John Chrichton, an astronaut", "actor oliver martinez"): the token of the word occurrence
    // a describes.
    std::vector<std::optional<Description>> described;
  };
  TextPersons find_persons() const;
  // The gendered pronouns, each with its form and the clause it may refer forward from.
  std::vector<GenderedPronoun> find_pronouns() const;

  // group_perturbations.cc: the name of group `to` and the same gender that replaces the name
  // at token t ("" when the group has none).
  std::string group_name(std::size_t t, std::size_t to) const;

  const Perturbator& p_;
  const PerturbatorResources& r_;
  const SensitiveAttribute& attribute_;
  const PerturbatorOptions& options_;
  const Perturbator::Impl* impl_;
  std::string_view text;
  std::size_t max_perturbations;
  bool coref_ = false;
  bool swap_checked_ = false;  // the analogy being proposed passed the gender-swap checks

  PerturbationSet out;
  text::TaggedText tagged;
  const std::vector<text::Token>& tokens;
  std::vector<std::string> words;  // lower case
  std::vector<text::Sentence> sentences;
  std::vector<ScoredWords> sentence_scores;
  std::vector<std::size_t> sentence_of;
  std::vector<bool> sentence_start;
  std::set<std::string> text_words;
  std::optional<PersonContext> context;

  // The people found.
  std::vector<GroupMention> group_mentions;
  // A phrase naming people by a group of another kind (the attribute file's `other`), as
  // written; empty: none.
  std::string other_group;
  // Member nouns of a text that names a group move with it ("a Hindu priest" → "a Muslim
  // imam"); so do associated words ("Hindus visited the temple" → "Christians visited the
  // church"): token, row, number.
  struct MemberAt {
    std::size_t token, row;
    bool plural;
    const std::vector<std::vector<std::string>>* rows;  // members or associated
  };
  std::vector<MemberAt> members_at;
  std::vector<std::size_t> occ_token;  // person nouns: token, facts, number
  std::vector<const NounInfo*> occ_info;
  std::vector<bool> occ_plural;
  std::vector<bool> occ_modifier;  // only modifies the noun after it (no adjective)
  std::vector<std::pair<std::size_t, knowledge::Gender>> names;  // token, gender

  // The perturbations made.
  struct Kept {
    Perturbation p;
    std::size_t order = 0;
  };
  std::vector<Kept> kept;
  std::set<std::string> texts;
  std::set<std::string> noted_choice;
};

}  // namespace assay::fairness
