// GroupWords: the words that name a group of a sensitive attribute ("black", "Muslims", "a Jew",
// "African American", "middle-aged", "the elderly"), found in a tagged text where they name
// people, and their counterparts in the other groups (same row of the attribute file, same
// part of speech and number).
//
// Forms come from the attribute file (sensitive_attribute.h): the `active` adjectives and the
// `adjective` rows, the `noun` rows (singular; their plurals are derived) and the `plural` rows.
// A form of several words also matches its hyphenated spelling as one token and the other way
// round ("African-American"); matching ignores case and takes the longest form.
//
// Where a group word names people (the rule docs/fairness.md states and the judged sets
// measure): an adjective names a group when it modifies a person noun, over other adjectives
// ("the black nurse", "a young gay man"), or a collective noun of people ("black
// communities"); when it is the predicate of a person ("my neighbour is Muslim", "she was
// old"); or when "the" stands before it and no noun after it ("the elderly are"). A noun form
// names a group where it heads its phrase ("a Muslim", "Jews", "teenagers"). Not: "black
// coffee", "white wine", "French fries", "straight line", "old movies", "in black and white",
// nor a phrase the file lists under `except` ("old friend"). Each refusal comes with its
// reason.
//
// Immutable after construction: thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fairness/sensitive_attribute.h"
#include "text/inflector.h"
#include "text/lingua_tables.h"
#include "text/pos_tagger.h"

namespace assay::fairness {

enum class GroupForm { kAdjective, kNoun, kPlural };

// One group word in a text: tokens [first, end), its group, its row among the forms of its
// kind (GroupWords::form) and whether a multi-word form was written as one hyphenated token.
struct GroupMention {
  std::size_t first = 0, end = 0;
  std::size_t group = 0, row = 0;
  GroupForm form = GroupForm::kAdjective;
  bool hyphenated = false;
};

// A group word that does not name a group where it stands, with the reason.
struct RefusedGroupWord {
  std::size_t first = 0, end = 0;
  std::size_t group = 0;
  std::string reason;
  // Part of a phrase that names people by a group of another kind (the file's `other`).
  bool other_group = false;
};

// What find() needs of the text beyond its tokens and tags.
struct GroupWordContext {
  const std::vector<std::string>* words = nullptr;        // lower-case tokens
  const std::vector<std::size_t>* sentence_of = nullptr;  // token → sentence
  // Whether the noun at token t (plural: its number) names a person (the perturbator's
  // narrowed IsPerson).
  std::function<bool(std::size_t t, bool plural)> is_person;
  // Whether the word at token t, tagged a common noun, is one WordNet knows (the tagger guesses
  // nouns for unknown words); empty: every tagged noun counts.
  std::function<bool(std::size_t t)> known_noun;
  // Whether capitalisation carries information (PersonContext::case_informative): where it
  // does not, a proper-noun tag says nothing ("THE BLACK NURSE").
  bool case_informative = true;
};

class GroupWords {
 public:
  // `inflector` derives the plurals of the noun rows; `tables` gives the tag names. Neither is
  // kept.
  GroupWords(const SensitiveAttribute& attribute, const text::Inflector& inflector,
             const text::LinguaTables& tables);

  bool empty() const { return keys_.empty(); }

  // The group words of a text that name people, in text order; the others go to `refused`.
  std::vector<GroupMention> find(std::string_view text, const text::TaggedText& tagged,
                                 const GroupWordContext& context,
                                 std::vector<RefusedGroupWord>& refused) const;

  // The first phrase of the file's `other` list that the lower-case tokens `words` hold
  // anywhere, joined by spaces; empty when none.
  std::string other_phrase(const std::vector<std::string>& words) const;

  // The word of group `g` that replaces mention `m`, as the file writes it: the same row and
  // kind, else the first of that kind the group has, else (nouns) its first adjective with
  // "person" / "people" ("an American" → "a Chinese person").
  std::string replacement(const GroupMention& m, std::size_t g) const;

  // form(kind)[row][group] ("" where the file has "-"), adjectives first row = `active`.
  const std::vector<std::vector<std::string>>& form(GroupForm kind) const {
    return rows_[static_cast<std::size_t>(kind)];
  }

 private:
  struct FormRef {
    GroupForm kind;
    std::size_t row, group;
  };
  enum TagClass : unsigned char {
    kOther,
    kAdjective,
    kNoun,
    kProperNoun,
    kVerb,
    kDeterminer,
    kConjunction,
    kAdverb,
    kPunctuation,
    kPreposition,
    kNumber,
    kParticiple,
  };

  // Why the group word at tokens [first, end), which spells `refs`, names no people there
  // (empty: it does, used as `*use`).
  std::string why_not(std::size_t first, std::size_t end, const std::vector<FormRef>& refs,
                      const text::TaggedText& tagged, const GroupWordContext& c,
                      GroupForm* use) const;

  std::vector<std::vector<std::string>> rows_[3];
  // Normalised key (lower case, '-' and '_' as spaces) → the forms it spells.
  std::unordered_map<std::string, std::vector<FormRef>> keys_;
  std::size_t max_words_ = 1;
  // The lower-case words of each `except` and `other` phrase, and which kind it is.
  struct Except {
    std::vector<std::string> words;
    bool other = false;
  };
  std::vector<Except> excepts_;
  std::size_t targets_ = 0;          // groups from here on are the file's source groups
  std::vector<TagClass> tag_class_;  // per tag
  std::vector<bool> plural_tag_;     // per tag: nns, nnps
};

}  // namespace assay::fairness
