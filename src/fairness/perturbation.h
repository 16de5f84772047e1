// What the perturbator produces for one input: the perturbed texts with their records (kind,
// changed spans, old and new words, fluency) and every candidate it dropped, with the reason.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::fairness {

// kName: a first name swapped for a name of the other gender (gender only); kGroup: the
// words that name a group swapped for another group's (file attributes: "the black nurse" →
// "the Asian nurse", group_words.h).
enum class MutationKind { kAnalogy, kActive, kName, kGroup };
std::string_view to_string(MutationKind kind);

// One changed place of the original text. Byte offsets [begin, end) into the original (an
// insertion has begin == end) and the same span in Unicode code points, which is what a
// Python user indexes.
struct ChangedSpan {
  std::size_t begin = 0, end = 0;
  std::size_t char_begin = 0, char_end = 0;
  std::string old_text;  // the bytes replaced ("" for an insertion)
  std::string new_text;  // what stands there now
};

struct Perturbation {
  std::string text;
  MutationKind kind = MutationKind::kAnalogy;
  std::string group;  // subpopulation the perturbed text speaks of ("female")
  // The group the changed words named in the original ("male" for "actor" → "actress", "white"
  // for "the white nurse" → "the black nurse"); empty for an insertion, whose noun named none.
  std::string from_group;
  std::string old_word;  // the person noun or name as written ("actors", "John")
  std::string new_word;  // its replacement ("actresses", "Mary") or the inserted adjective
  // Where the counterpart came from: the finder's evidence (antonym, gloss, ...), "vectors",
  // "member" (aligned member nouns of an attribute file), "insert" (ActiveMutate), "names" or
  // "group" (group words).
  std::string evidence;
  // One per word changed: every occurrence of the noun or name, a repaired article, and each
  // pronoun or title that co-reference changed with it ("he" → "she").
  std::vector<ChangedSpan> spans;
  // Ge et al. fluency of the changed sentence (the least fluent relative to the original when
  // several sentences changed) and its ratio to the same sentence of the original.
  double fluency = 0;
  double fluency_ratio = 0;
  // The named checks (referent_checks.h) it passed, in their order: an inserted adjective the
  // insertion checks, a first name the name checks, a swapped gendered noun the gender-swap
  // checks; those switched off are not among them. Empty when none applied (a group word, a
  // file attribute's member noun, --broad-persons).
  std::vector<std::string> checks;
};

struct DroppedCandidate {
  MutationKind kind = MutationKind::kAnalogy;
  std::string group;
  std::string old_word;
  std::string new_word;
  std::string reason;
};

struct PerturbationSet {
  std::size_t n_person_nouns = 0;  // person-noun occurrences found
  std::size_t n_names = 0;         // first-name occurrences found (gender)
  std::size_t n_group_words = 0;   // group-word occurrences that name people (file attributes)
  // Of the original text, its sentences pooled (NaN when nothing was scored).
  double fluency = 0;
  // The perturbator stopped at its limit of perturbations built per text
  // (PerturbatorOptions::max_perturbations): the text may have more.
  bool limit_reached = false;
  std::vector<Perturbation> perturbations;
  std::vector<DroppedCandidate> dropped;
  bool is_mutable() const { return !perturbations.empty(); }
  std::size_t count(MutationKind kind) const;
};

// What a filter (an AEON gate) did to perturbations.
struct FilterCounts {
  std::size_t scored = 0, dropped = 0, flagged = 0;  // flagged: kept, marked as failing
  void add(const FilterCounts& other) {
    scored += other.scored;
    dropped += other.dropped;
    flagged += other.flagged;
  }
};

// Called on an input's perturbations before a model is asked for them (an AEON gate drops
// some, listing them among the set's dropped candidates); thread-safe. Every fair command that
// asks a model takes one.
using PerturbationFilter =
    std::function<FilterCounts(const std::string& original, PerturbationSet& set)>;

}  // namespace assay::fairness
