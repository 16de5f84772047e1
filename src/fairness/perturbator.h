// Perturbator: P(x, A, G) of MT-NLP's Algorithm 2 (../shared/spec/fairness.md). For every
// common noun (Lingua tag nn / nns, longer than one character) that the knowledge graph calls
// a person (IsPerson on its WordNet lemma) and, with `narrow_persons`, that names a person
// where it stands (person_context.h: not part of a title or a name, not a mass use):
//  - AnalogyMutate: replace it by its counterpart in each other group of the attribute —
//    with word vectors, Algorithm 3 (3CosAdd from the nearest group anchor, cosine ≥
//    min_cosine) validated against the knowledge graph when `strict`; without vectors, the
//    gender counterpart finder (gender) or the attribute file's aligned member nouns. Where
//    several counterparts qualify, one is chosen by `choice` (docs/fairness.md measures them);
//  - ActiveMutate: when no adjective or noun stands right before it and it is neutral (no
//    gender of its own / not a member of a group / no IsA path to a group), insert each
//    group's adjective before it ("the actor" → "the female actor") — unless it only modifies
//    the common noun after it ("a teen movie", "the escort service", and adjectives the tagger
//    reads as nouns: "the erotic thriller"), where "a male teen movie" would change the
//    meaning. It is the head, and perturbed, when the next word is a person ("child actor"),
//    reads as a name ("director peter sheridan", "actor bill paxton") or as a verb the tagger
//    took for a noun ("the viewer feel", a plural before a singular: "actors share").
// File attributes also swap their group words where they name people (group_words.h: "the black
// nurse" → "the white nurse", every mention of the group at once, the other group's mentions
// the other way, member nouns, associated words and the group's first names along), and a text
// that names a group gets no inserted adjective. Two words a text contrasts ("the king and the
// queen") are never made the same word.
// Gender consults the curated lexicon (gender_lexicon.h) before the knowledge graph and the
// vectors, gives analogies only to nouns that have a gender, swaps first names (kName,
// first_names.h), and makes the words that refer to the changed person follow it
// (coreference.h): every mention of the same noun or name, and the pronouns resolved to it; a
// perturbation whose pronouns cannot be resolved is dropped with the reason.
// Number, capitalisation (sentence-initial too) and possessives are kept, "a"/"an" before the
// change is repaired. Without co-reference (other attributes, or `coreference` false) each
// perturbation changes one occurrence, or every occurrence of the same noun with
// `all_occurrences`. The fluency filter keeps x' when f(x') ≥ τ·f(x) and, with
// max_per_input, only the most fluent. Every candidate not kept is listed with its reason.
//
// Thread-safe: perturb() may be called from many threads (a mutex guards the per-noun cache).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fairness/fluency_scorer.h"
#include "fairness/perturbation.h"
#include "fairness/perturbator_resources.h"
#include "fairness/sensitive_attribute.h"
#include "vectors/similarity_search.h"

namespace assay::fairness {

class PersonContext;

// How one counterpart is chosen where the graph offers several (dad → mom, mum, ma, …).
enum class CounterpartChoice {
  kRank,       // the finder's best-ranked
  kFrequency,  // the most frequent word under the language model (unigram)
  kMutual,     // the best-ranked whose own best counterpart is the original noun
  kContext,    // the one giving the most fluent perturbed text
};
std::string_view to_string(CounterpartChoice c);
// "rank", "frequency", "mutual", "context"; throws core::UsageError otherwise.
CounterpartChoice parse_counterpart_choice(std::string_view name);

struct PerturbatorOptions {
  bool analogy = true;
  bool active = true;
  bool strict = true;                // knowledge-graph validation of vector analogies
  double min_cosine = 0.7;           // Algorithm 3's acceptance threshold (reference code)
  std::size_t vectors_restrict = 0;  // analogy search over the first N vectors (0 = all)
  CounterpartChoice choice = CounterpartChoice::kMutual;
  bool all_occurrences = false;
  // Person nouns: the classifier's answer narrowed to nouns whose most frequent sense is a
  // person or that have a gender, never a named individual, and to places where they name a
  // person (person_context.h) (false: the classifier alone, which also takes "case", "life",
  // "hand" through rare person senses, and every place; docs/fairness.md).
  bool narrow_persons = true;
  // ActiveMutate also on person nouns that only modify the common noun after them ("a male
  // teen movie"); false (the default) leaves them to AnalogyMutate
  // (docs/fairness-reproduction.md measures the rule).
  bool active_noun_modifiers = false;
  // Gender: pronouns and every other mention of the changed person follow it (coreference.h).
  bool coreference = true;
  // Gender: first names (the resources' FirstNames, when loaded) are swapped for a name of the
  // other gender (kName); the seed picks each name's replacement (FirstNames::replacement).
  std::uint64_t seed = 0;
  double fluency_ratio = 0.0;     // τ; 0 keeps every perturbation
  std::size_t max_per_input = 0;  // 0 = no cap
  // The most perturbations built for one text (0: no limit), so that a text's cost stays linear
  // in its length whatever it repeats (a person noun 6,000 times makes 24,000 insertions of a
  // file attribute otherwise, each a copy of the text): the candidates after the limit are not
  // made and the set says so (PerturbationSet::limit_reached). max_per_input then picks among
  // those built.
  std::size_t max_perturbations = 256;
  // Checks of referent_checks.h left out, by name (to measure one on the judged sets alone).
  std::set<std::string, std::less<>> disabled_checks;
};

// A counterpart lemma for one target group, with where it came from.
struct CounterpartCandidate {
  std::string word;  // lemma, spaces for multi-word terms
  std::string evidence;
  double score = 0;
};

class PerturbationBuilder;
struct NeutralForms;

class Perturbator {
 public:
  // `resources` must outlive the perturbator. Throws core::UsageError when the attribute's
  // groups cannot be used (e.g. gender without the finder).
  Perturbator(const PerturbatorResources& resources, SensitiveAttribute attribute,
              PerturbatorOptions options = {});
  ~Perturbator();

  // Throws core::ParseError (byte offset) when `text` is not valid UTF-8.
  PerturbationSet perturb(std::string_view text) const;
  // The first `max_perturbations` of perturb(text), built without the rest (fair serve's
  // --max-k: a text with thousands of person nouns costs what its first K perturbations cost);
  // the dropped candidates are those met before the limit.
  PerturbationSet perturb(std::string_view text, std::size_t max_perturbations) const;
  // Optional warm-up before perturbing `texts` (e.g. a chunk of inputs): with word vectors, the
  // analogy searches of every person noun in them not met before run together, in one pass
  // over the vectors (vectors::most_similar_many), and are kept for perturb(). Only speed
  // changes: a search's result is the same whether it ran here, with any other nouns, or
  // alone inside perturb(). Texts that are not valid UTF-8 are skipped (perturb() reports
  // them). Thread-safe like perturb().
  void prepare(std::span<const std::string_view> texts) const;

  // The pieces, for tests and the quality evaluation. person_lemma: the WordNet lemma of a
  // noun written `word` with Lingua tag nn (plural false) or nns (true) when it is a person.
  std::optional<std::string> person_lemma(std::string_view word, bool plural) const;
  // Counterparts of a person lemma for each group (index as in attribute().groups), in the
  // order of the source (before the choice), and the dropped ones with reasons.
  std::vector<std::vector<CounterpartCandidate>> counterparts(
      const std::string& lemma, std::vector<DroppedCandidate>* dropped = nullptr) const;
  // The counterpart `choice` picks for `lemma` in group `group` without sentence context
  // (kContext falls back to kFrequency); nullopt when there is none.
  std::optional<std::string> choose_counterpart(const std::string& lemma, std::size_t group) const;
  bool is_neutral(const std::string& lemma) const;
  // Gender: the gender of a person lemma (the lexicon's, else its most frequent person
  // sense's); kNone for a neutral noun.
  knowledge::Gender noun_gender(const std::string& lemma) const;

  // The representative of `text`'s class for the neutral layer (neutral_class.h): every word
  // this perturbator may change or insert written in one form that names no group. A file
  // attribute's group words (adjectives, nouns and their plurals, member nouns, first names)
  // are left out, with the words "person" and "people" (which stand for a group with no noun
  // of its own: "a Chinese person"), so "a German", "a Briton" and "a Chinese person" are all
  // "a"; its associated words become one word of their row. Gender leaves out "male" and
  // "female" and writes person nouns with a gender and first names (a double name one) as
  // "person" / "people", pronouns as "they" / "their" / "themselves", titles as "mx". "an" is
  // "a". Case and the text between words are kept; the capital of a left-out word that starts
  // a sentence moves to the next word. A text and each perturbation perturb() makes of it give
  // the same representative, except where a counterpart is a word none of these lists hold (a
  // vector analogy); `fair mitigate` counts such pairs. Thread-safe.
  std::string neutral_form(std::string_view text) const;

  const SensitiveAttribute& attribute() const { return attribute_; }
  const PerturbatorOptions& options() const { return options_; }

 private:
  friend class PerturbationBuilder;  // perturb()'s steps (perturbation_builder.h)
  struct NounInfo;
  struct Impl;
  bool is_perturbable_person(const std::string& lemma) const;
  // Tokens that may be common nouns (Lingua nn / nns, or a sentence-initial nnp / nnps whose
  // lower-case form is one), with whether they are plural; perturb() and prepare() share it.
  std::vector<std::pair<std::size_t, bool>> noun_tokens(
      std::string_view text, const text::TaggedText& tagged,
      const std::vector<bool>& sentence_start) const;
  // The counterpart sources, one file each, behind one signature (counterpart_sources.cc runs
  // them in order; perturbator_internal.h holds the search they share): each adds the
  // counterparts it finds for the search's lemma, with their evidence, and drops the
  // candidates it refuses, with the reason; kAnswered ends the search, kPass asks the next.
  struct CounterpartSearch;
  enum class SourceAnswer { kPass, kAnswered };
  SourceAnswer lexicon_counterparts(CounterpartSearch& search) const;  // counterparts_lexicon.cc
  SourceAnswer vector_counterparts(CounterpartSearch& search) const;   // counterparts_vectors.cc
  SourceAnswer graph_counterparts(CounterpartSearch& search) const;    // counterparts_graph.cc
  SourceAnswer member_counterparts(CounterpartSearch& search) const;   // counterparts_members.cc
  // Algorithm 3 with vectors: the group pt of a lemma (nullopt: no vector or no anchor), the
  // 3CosAdd query for every other group, the search options, and a query's neighbours (cached;
  // computed alone with most_similar_many when prepare() did not).
  std::optional<std::size_t> nearest_group(const std::string& lemma) const;
  std::vector<vectors::SimilarityQuery> analogy_queries(const std::string& lemma) const;
  vectors::SearchOptions search_options() const;
  std::vector<vectors::Neighbor> analogy_neighbours(const vectors::SimilarityQuery& query) const;
  // Gender, with the knowledge graph's glosses: whether a gloss-derived counterpart is defined
  // through the noun or defines it.
  bool glosses_link(const std::string& lemma, const std::string& counterpart) const;
  // Gender (noun_gender.cc): the gender of a lemma's most frequent person sense, or of its
  // -man form; kNone for a neutral noun.
  knowledge::Gender primary_gender(const std::string& lemma) const;
  // The gender a compound in -man / -woman carries when the lexicon does not list it
  // ("jazzman": male), else kNone.
  knowledge::Gender compound_gender(const std::string& lemma) const;
  // Whether a graph or vector counterpart `word` may stand for group `group`: with gender and
  // the lexicon, a person noun whose own gender is the group's (not man -> girl by vectors,
  // not bull -> amazon); otherwise always.
  bool gendered_person(const std::string& word, std::size_t group) const;
  const NounInfo& noun_info(const std::string& key, std::string_view word, bool plural) const;
  // Whether lower-case `word` reads as a name (rt-polarity is lower-cased: "peter", "paxton"):
  // the lexicon does not know it in lower case, and it knows the capitalised form as a proper
  // noun or WordNet spells every noun sense capitalised (or has none).
  bool reads_as_name(const std::string& word) const;
  // Whether WordNet spells a noun sense of lower-case `word` (or of its lemma) in lower case.
  bool common_noun_sense(const std::string& word) const;
  // Gender: whether `word` is a title of address in the lexicon (Mr, Mr., Mrs, Sir, Madam).
  bool is_title(std::string_view word) const;
  // The person nouns of a text that name a person where they stand (with narrow_persons, the
  // place rules of person_context.h and the title rules; each refusal goes to `dropped`), in
  // text order: token, noun facts, number (from the lemma: Lingua tags some singulars nns).
  struct PersonNouns {
    std::vector<std::size_t> token;
    std::vector<const NounInfo*> info;
    std::vector<bool> plural;
  };
  PersonNouns person_nouns(std::string_view text, const text::TaggedText& tagged,
                           const std::vector<bool>& sentence_start, const PersonContext& context,
                           std::vector<DroppedCandidate>& dropped) const;
  // Whether token t + 1 is a name (in t's sentence unless `across_sentences`): a first name, a
  // capitalised proper noun in normally cased text, or in lower-cased text a word the lexicon
  // knows only capitalised ("sprecher"), or a first name that is also a common word before a
  // surname ("actor bill paxton").
  bool name_follows(std::string_view text, const text::TaggedText& tagged,
                    const std::vector<bool>& sentence_start, const PersonContext& context,
                    std::size_t t, bool across_sentences) const;
  // Gender: the tokens that are first names (first_names.h), with their gender — capitalised
  // and read as proper nouns by the tagger, or, in lower-cased text, known to the lexicon only
  // capitalised.
  // Names the context rules reject (person_context.h) go to `dropped` with the reason.
  std::vector<std::pair<std::size_t, knowledge::Gender>> name_tokens(
      std::string_view text, const text::TaggedText& tagged,
      const std::vector<bool>& sentence_start, const PersonContext& context,
      std::vector<DroppedCandidate>& dropped) const;
  // Gender: whether the lexicon lists a lemma; whether it is a kinship word, a title of
  // address or of nobility, which may stand without a determiner ("Mom said", "Lady Grantham").
  bool lexicon_word(const std::string& lemma) const;
  bool may_stand_bare(const std::string& lemma) const;
  // Whether the tagger's lexicon knows the capitalised form of a lower-case word as a proper
  // noun ("bill" → "Bill").
  bool known_capitalised_as_name(const std::string& word) const;
  // Whether the person noun at token `i` only modifies the common noun at i + 1 (same
  // sentence); see ActiveMutate above.
  bool modifies_next_noun(const text::TaggedText& tagged, const std::vector<std::string>& words,
                          const std::vector<std::size_t>& sentence_of, std::size_t i,
                          bool plural) const;

  // neutral_form()'s word lists (neutral_form.cc), built on first use.
  const NeutralForms& neutral_forms() const;
  // The representative of one lower-case word that no attribute list holds ("" : kept).
  std::string neutral_word(const std::string& lower) const;

  const PerturbatorResources& r_;
  SensitiveAttribute attribute_;
  PerturbatorOptions options_;
  FluencyScorer fluency_;
  std::unique_ptr<Impl> impl_;
  mutable std::once_flag neutral_forms_once_;
  mutable std::shared_ptr<const NeutralForms> neutral_forms_;
};

}  // namespace assay::fairness
