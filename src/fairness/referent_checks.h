// Checks a candidate passes before it becomes a perturbation, each a small named unit with the
// one line a dropped candidate reports (docs/fairness.md, "Checks"). They look only at the
// words, their tags and their sentences, never at a particular text, so each can be read,
// switched off (PerturbatorOptions::disabled_checks) and measured on the judged sets alone.
//
//   insertion_checks()  a noun that would take an inserted group ("the doctor" → "the female
//                       doctor") names specific people: not people in general (a bare plural,
//                       a quantified or habitual statement, what "a user can" do, the
//                       audience of the text, a person of a kind of story), not an epithet
//                       ("called me an idiot"), not a kind of thing ("the kids' menu");
//   gender_swap_checks() a word swapped for its other-gender counterpart ("wife" → "husband")
//                       changes only that person: not one half of a couple whose other half
//                       the text names ("his wife" → "his husband" makes another couple);
//   name_checks()       a first name names a person: not a day or a month, not part of the
//                       name of a dish, place or business ("eggs Benedict", "Victoria Park",
//                       "lunch at Wendy's").
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::fairness {

// What a check reads of a text.
struct TokenView {
  const std::vector<std::string>& words;  // lower case
  const std::vector<std::size_t>& sentence_of;
  std::function<std::string_view(std::size_t)> tag_of;  // the tagger's tag name ("nns", "md")
  std::function<bool(std::size_t)> capitalised_at;      // the token as written starts upper case
  std::function<bool(std::size_t)> person_at;           // a noun that names a person here

  std::size_t size() const { return words.size(); }
  bool same_sentence(std::size_t a, std::size_t b) const {
    return a < size() && b < size() && sentence_of[a] == sentence_of[b];
  }
  // "" / false past the end.
  std::string_view tag(std::size_t i) const { return i < size() ? tag_of(i) : std::string_view{}; }
  bool capitalised(std::size_t i) const { return i < size() && capitalised_at(i); }
  bool person_noun(std::size_t i) const { return i < size() && person_at(i); }
};

// The candidate: a noun (or a first name) at token `at`; `plural` for a plural noun.
struct Candidate {
  std::size_t at = 0;
  bool plural = false;
};

struct Check {
  std::string_view name;
  std::string_view reason;  // why a candidate that fails it is dropped
  bool (*fails)(const TokenView&, const Candidate&);
};

std::span<const Check> insertion_checks();
std::span<const Check> gender_swap_checks();
std::span<const Check> name_checks();

// The check of either list named `name`, or nullptr.
const Check* find_check(std::string_view name);

// The first of `checks` not in `disabled` that the candidate fails, or nullptr.
const Check* first_failed(std::span<const Check> checks, const TokenView& view, const Candidate& c,
                          const std::set<std::string, std::less<>>& disabled);

}  // namespace assay::fairness
