// Where a person noun or a first name names a person: the Perturbator's person test, its noun
// and name tokens, and the place rules around them (person_context.h holds the rules that need
// no lexicon).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/error.h"
#include "core/utf8.h"
#include "fairness/person_context.h"
#include "fairness/perturbator_internal.h"
#include "fairness/referent_checks.h"
#include "text/sentence_splitter.h"

namespace assay::fairness {

using namespace perturbator_detail;

// IsPerson for perturbation: the classifier's answer, narrowed to nouns whose most frequent
// sense is a person or that have a gender (queen: sense 1 is the insect), and never a named
// individual (WordNet spells those capitalised: "Barrymore", lower-cased in rt-polarity).
// Without the narrowing "case", "hand", "life", "sun" and "subject" count as persons through
// rare person senses.
bool Perturbator::is_perturbable_person(const std::string& lemma) const {
  if (is_pronoun_noun(lemma)) return false;
  if (attribute_.uses_gender_finder && r_.gender_lexicon && r_.gender_lexicon->find(lemma))
    return true;
  const auto& persons = *r_.persons;
  if (!persons.is_person(lemma)) return false;
  if (!options_.narrow_persons) return true;
  const auto& graph = *r_.graph;
  const auto senses = graph.noun_senses(lemma);
  if (senses.empty()) return false;
  for (const auto s : persons.considered_senses(lemma)) {
    if (!persons.sense_is_person(s)) continue;
    bool common = false;
    for (const auto& w : graph.node_words(s)) common |= w == lemma;
    if (!common) return false;  // only a capitalised (proper) spelling names this sense
    break;
  }
  // WordNet orders a noun's senses by how often each was tagged in its corpus; a noun none of
  // whose senses was tagged has them in no such order, so its first sense is the most frequent
  // only by chance: it counts as a person when every sense is one ("filmmaker"; not "extra":
  // a minor actor, a newspaper's edition, something additional).
  const bool untagged_mixed = graph.tagged_noun_sense_count(lemma) == 0 &&
                              std::any_of(senses.begin(), senses.end(), [&](knowledge::NodeId s) {
                                return !persons.sense_is_person(s);
                              });
  if (persons.sense_is_person(senses.front()) && !untagged_mixed) return true;
  // A noun whose most frequent sense is not a person is one only when it has a gender through
  // the lexicon (queen) — not through a rare sense ("bull": a heavyset man) — or is a member
  // noun of the attribute file.
  if (attribute_.uses_gender_finder) {
    return r_.gender_lexicon ? false : r_.finder->gender_of(lemma) != knowledge::Gender::kNone;
  }
  return attribute_.find_member(lemma).has_value();
}

std::optional<std::string> Perturbator::person_lemma(std::string_view word, bool plural) const {
  const std::string lower = text::to_lower(word);
  struct {
    const Perturbator* self;
    bool is_person(const std::string& w) const { return self->is_perturbable_person(w); }
  } persons{this};
  if (plural) {
    const auto forms = r_.lemmatizer->morphy(lower, text::PartOfSpeech::kNoun);
    for (const auto& f : forms) {
      if (f != lower && persons.is_person(f)) return f;
    }
    if (persons.is_person(lower)) return lower;
    return std::nullopt;
  }
  if (persons.is_person(lower)) return lower;
  return std::nullopt;
}

std::vector<std::pair<std::size_t, bool>> Perturbator::noun_tokens(
    std::string_view text, const text::TaggedText& tagged,
    const std::vector<bool>& sentence_start) const {
  std::vector<std::pair<std::size_t, bool>> out;
  const auto& tokens = tagged.tokens;
  const auto& tables = r_.tagger->tables();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto tag = tagged.tags[i];
    const auto surface = tokens[i].surface(text);
    bool plural = tag == impl_->nns;
    if ((tag == impl_->nnp || tag == impl_->nnps) && is_title(surface)) {
      out.emplace_back(i, false);  // "Mr.", "Mrs", "Sir" before a name
      continue;
    }
    if (tag != impl_->nn && tag != impl_->nns) {
      // Lingua tags a capitalised word at the start of a sentence nnp / nnps ("Actresses
      // deserve ..."); it is a common noun when the lexicon knows its lower-case form as one.
      if (!sentence_start[i] || (tag != impl_->nnp && tag != impl_->nnps)) continue;
      const std::string lower = text::lower_first(surface);
      bool common = false;
      if (const auto* counts = r_.tagger->tables().find_word(lower)) {
        for (const auto& c : *counts) {
          common |= c.tag == impl_->nn || c.tag == impl_->nns;
          plural |= c.tag == impl_->nns;
        }
      } else {
        // Unknown to the lexicon: a regular plural of a WordNet noun ("Actresses"); names are
        // seldom plural, so "Mary" stays a name.
        for (const auto& f :
             r_.lemmatizer->morphy(text::to_lower(lower), text::PartOfSpeech::kNoun)) {
          if (f != text::to_lower(lower)) common = plural = true;
        }
      }
      if (!common) continue;
    }
    if (!is_noun_word(surface)) continue;
    // A verb the tagger read as a plural noun: after a noun, before a determiner ("the
    // actress hosts a show", "the city hosts a festival").
    if (tag == impl_->nns && i > 0 && i + 1 < tokens.size()) {
      const auto before = tables.tag_name(tagged.tags[i - 1]);
      const auto after = tables.tag_name(tagged.tags[i + 1]);
      if ((before == "nn" || before == "nnp") && (after == "det" || after == "prps")) continue;
    }
    // A tally, not a nobleman, unless a name or "of" follows or it is capitalised: "delivers
    // on all counts" (but "the Count", "count dracula", "the count of monte cristo").
    if (const std::string lower_word = text::to_lower(surface);
        (lower_word == "count" || lower_word == "counts") && !upper_first(surface)) {
      const bool nobleman =
          i + 1 < tokens.size() &&
          (text::to_lower(tokens[i + 1].text) == "of" ||
           (tables.tag_name(tagged.tags[i + 1]) == "nnp" && upper_first(tokens[i + 1].text)) ||
           (r_.first_names &&
            r_.first_names->gender_of(tokens[i + 1].text) != knowledge::Gender::kNone));
      if (!nobleman) continue;
    }
    // A quantity, not a person: "a host of problems".
    if (i + 1 < tokens.size() && text::to_lower(surface) == "host" &&
        text::to_lower(tokens[i + 1].text) == "of")
      continue;
    out.emplace_back(i, plural);
  }
  return out;
}

bool Perturbator::common_noun_sense(const std::string& word) const {
  const auto& graph = *r_.graph;
  for (const auto& lemma : r_.lemmatizer->morphy(word, text::PartOfSpeech::kNoun)) {
    for (const auto s : graph.noun_senses(lemma)) {
      for (const auto& w : graph.node_words(s)) {
        if (w == lemma) return true;
      }
    }
  }
  return false;
}

bool Perturbator::reads_as_name(const std::string& word) const {
  const auto& tables = r_.tagger->tables();
  if (tables.find_word(word)) return false;
  if (const auto* counts = tables.find_word(text::upper_first(word))) {
    for (const auto& c : *counts) {
      if (c.tag == impl_->nnp || c.tag == impl_->nnps) return true;
    }
  }
  return !common_noun_sense(word);
}

bool Perturbator::is_title(std::string_view word) const {
  if (!attribute_.uses_gender_finder || !r_.gender_lexicon) return false;
  const auto* e = r_.gender_lexicon->find(text::to_lower(without_dot(word)));
  return e && e->category == "address";
}

std::vector<std::pair<std::size_t, knowledge::Gender>> Perturbator::name_tokens(
    std::string_view text, const text::TaggedText& tagged, const std::vector<bool>& sentence_start,
    const PersonContext& context, std::vector<DroppedCandidate>& dropped) const {
  std::vector<std::pair<std::size_t, knowledge::Gender>> out;
  const auto& tables = r_.tagger->tables();
  const auto& tokens = tagged.tokens;
  // The names perturbed: the first-name lists for gender, the attribute's `names` rows else.
  const auto gender_of = [&](std::string_view w) {
    if (attribute_.uses_gender_finder)
      return r_.first_names ? r_.first_names->gender_of(w) : knowledge::Gender::kNone;
    const auto hit = attribute_.find_name(w);
    if (!hit) return knowledge::Gender::kNone;
    return hit->female ? knowledge::Gender::kFemale : knowledge::Gender::kMale;
  };
  // Any first name, for the places around a name ("John Wayne": a surname after a name).
  const auto any_first_name = [&](std::string_view w) {
    return gender_of(w) != knowledge::Gender::kNone ||
           (r_.first_names && r_.first_names->gender_of(w) != knowledge::Gender::kNone);
  };
  // The words for the checks of referent_checks.h.
  std::vector<std::string> lower_words;
  std::vector<std::size_t> sentence_of;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    lower_words.push_back(text::to_lower(tokens[i].surface(text)));
    sentence_of.push_back((sentence_of.empty() ? 0 : sentence_of.back()) +
                          (i > 0 && sentence_start[i]));
  }
  const TokenView view{lower_words, sentence_of,
                       [&](std::size_t t) { return tables.tag_name(tagged.tags[t]); },
                       [&](std::size_t t) { return upper_first(tokens[t].surface(text)); },
                       [&](std::size_t t) {
                         const auto tag = tables.tag_name(tagged.tags[t]);
                         return person_lemma(lower_words[t], tag == "nns").has_value();
                       }};
  const auto& disabled = options_.disabled_checks;
  // Surnames of the text's full names ("Dr. Mark Powell"): the capitalised word that ends a
  // name after a first name. Alone elsewhere in the text it is that person's surname ("But
  // it's Powell's job"), even where the lists know it as a first name too.
  std::set<std::string> surnames;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    const auto first = tokens[i].surface(text);
    const auto next = tokens[i + 1].surface(text);
    if (!context.case_informative() || sentence_start[i + 1] || !upper_first(first) ||
        !upper_first(next) || all_upper(next) || !is_noun_word(next) || !any_first_name(first))
      continue;
    if (i + 2 < tokens.size() && !sentence_start[i + 2] && upper_first(tokens[i + 2].surface(text)))
      continue;  // not the end of the name
    surnames.insert(std::string(next));
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto surface = tokens[i].surface(text);
    if (!is_noun_word(surface) || all_upper(surface)) continue;
    const auto gender = gender_of(surface);
    if (gender == knowledge::Gender::kNone) continue;
    const bool in_full_name =
        (i + 1 < tokens.size() && !sentence_start[i + 1] &&
         upper_first(tokens[i + 1].surface(text))) ||
        (i > 0 && !sentence_start[i] && any_first_name(tokens[i - 1].surface(text)));
    if (surnames.count(std::string(surface)) && !in_full_name) {
      dropped.push_back({MutationKind::kName, "", std::string(surface), "",
                         "not a name here: the surname of a full name in the text"});
      continue;
    }
    // A first name the tagger's lexicon also knows in lower case, before a capitalised word
    // that is a common word there or in WordNet, begins a title or a name of a thing ("Star
    // Trek", "Red Delicious"; not "Nick Cage": "nick" is not in that lexicon).
    const auto common_word = [&](std::string_view w) {
      const std::string lower = text::to_lower(w);
      return tables.find_word(lower) != nullptr || common_noun_sense(lower);
    };
    if (upper_first(surface) && tables.find_word(text::to_lower(surface)) &&
        i + 1 < tokens.size() && !sentence_start[i + 1]) {
      const auto next = tokens[i + 1].surface(text);
      if (upper_first(next) && !all_upper(next) && is_noun_word(next) && !any_first_name(next) &&
          common_word(next) && !lexicon_word(text::to_lower(without_dot(next)))) {
        dropped.push_back({MutationKind::kName, "", std::string(surface), "",
                           "not a name here: part of a title, before the common word '" +
                               std::string(next) + "'"});
        continue;
      }
    }
    const auto tag = tagged.tags[i];
    const std::string lower = text::to_lower(surface);
    bool name = false;
    if (upper_first(surface)) {
      // Capitalised: the tagger must read it as a proper noun ("Will said" but not "Will you
      // come?"); at the start of a sentence, where everything is capitalised, a word the
      // lexicon also knows in lower case only before a verb ("Mark said", not "Sandy
      // beaches").
      const bool verb_next =
          i + 1 < tokens.size() && (tables.tag_name(tagged.tags[i + 1]).rfind("vb", 0) == 0 ||
                                    tables.tag_name(tagged.tags[i + 1]) == "md");
      name = (tag == impl_->nnp || tag == impl_->nnps) &&
             (!sentence_start[i] || !tables.find_word(lower) || verb_next);
    } else {
      // Lower-cased text (rt-polarity): a word the lexicon knows only capitalised, as a name,
      // and only as the first of a full name, where a surname follows ("peter sheridan"): a
      // lone "jackson", "parker" or "howard" is as often a surname, and a month ("april")
      // reads as a name too (judged sample: 38 right, 33 wrong without this rule).
      static const std::set<std::string> kMonths = {"january", "february", "april", "may",
                                                    "june",    "july",     "august"};
      // A first name right after another is a middle name ("william randolph hearst"): the
      // first one, not this, is the person's name.
      name = !kMonths.count(lower) && reads_as_name(lower) && i + 1 < tokens.size() &&
             !upper_first(tokens[i + 1].surface(text)) &&
             is_noun_word(tokens[i + 1].surface(text)) &&
             reads_as_name(text::to_lower(tokens[i + 1].surface(text))) &&
             !any_first_name(tokens[i + 1].surface(text)) &&
             (i == 0 || sentence_start[i] || !any_first_name(tokens[i - 1].surface(text)));
    }
    // A surname, not a first name, after a title or another proper noun ("Mr. Smith",
    // "Lady Grantham", "Dr. Kelly", "John Wayne").
    if (name && i > 0) {
      const auto before = tokens[i - 1].surface(text);
      const auto before_tag = tagged.tags[i - 1];
      const std::string b = text::to_lower(without_dot(before));
      const bool titled = upper_first(before) && r_.gender_lexicon && r_.gender_lexicon->find(b);
      if (titled || b == "dr" || b == "prof" || b == "st" ||
          ((before_tag == impl_->nnp || before_tag == impl_->nnps) && upper_first(before) &&
           (!sentence_start[i - 1] || any_first_name(before)))) {
        name = false;
      }
    }
    // After "a" / "an" a first name names a thing or a type ("an Oscar nom", "a Barbie doll"),
    // except a role someone plays ("as a Vivian Crane", below).
    if (name && i > 0 && !sentence_start[i]) {
      const std::string b = text::to_lower(tokens[i - 1].surface(text));
      const bool as_role =
          i > 1 && !sentence_start[i - 1] && text::to_lower(tokens[i - 2].surface(text)) == "as";
      if ((b == "a" || b == "an") && !as_role) {
        dropped.push_back({MutationKind::kName, "", std::string(surface), "",
                           "not a name here: after '" + b + "' (an award, a product, a type)"});
        continue;
      }
    }
    // "Louis Gossett Jr.": a son's suffix in the full name says the person is a man, and it
    // would stay after a woman's name.
    if (name) {
      bool suffixed = false;
      for (std::size_t k = i + 1; k <= i + 3 && k < tokens.size() && !sentence_start[k]; ++k) {
        const std::string w = text::to_lower(without_dot(tokens[k].surface(text)));
        if (w == "jr" || w == "sr") suffixed = true;
        if (!upper_first(tokens[k].surface(text)) && w != "jr" && w != "sr") break;
      }
      if (suffixed) {
        dropped.push_back({MutationKind::kName, "", std::string(surface), "",
                           "not swapped: a full name with 'Jr.' or 'Sr.', a man's"});
        continue;
      }
    }
    // A name an adjective is made of names a manner ("a john waters-like humor").
    if (name && i + 1 < tokens.size() && !sentence_start[i + 1] &&
        adjective_from_name(text::to_lower(tokens[i + 1].surface(text)))) {
      dropped.push_back({MutationKind::kName, "", std::string(surface), "",
                         "not a name here: part of the adjective '" +
                             text::to_lower(tokens[i + 1].surface(text)) + "'"});
      continue;
    }
    if (!name) continue;
    if (const Check* failed = first_failed(name_checks(), view, {i, false}, disabled)) {
      dropped.push_back(
          {MutationKind::kName, "", std::string(surface), "",
           "not a name here: " + std::string(failed->name) + ": " + std::string(failed->reason)});
      continue;
    }
    const std::string why = context.name_blocked(i, [&](std::string_view w) {
      return any_first_name(w) || lexicon_word(text::to_lower(without_dot(w)));
    });
    if (!why.empty()) {
      dropped.push_back(
          {MutationKind::kName, "", std::string(surface), "", "not a name here: " + why});
      continue;
    }
    out.emplace_back(i, gender);
  }
  // A role and its actor: a name after "as" ("Anne Heche is fine as a Vivian Crane", "as
  // Norman Bates, Vince Vaughn") is a character someone plays; swapping either alone makes an
  // actor play a character of the other gender. Neither is perturbed: the role, and the
  // nearest other name of its sentence.
  const auto role = [&](std::size_t t) {
    std::size_t k = t;
    if (k >= 1 && !sentence_start[k]) {
      const std::string b = text::to_lower(tokens[k - 1].surface(text));
      if (b == "a" || b == "an" || b == "the") --k;
    }
    return k >= 1 && !sentence_start[k] && text::to_lower(tokens[k - 1].surface(text)) == "as";
  };
  std::vector<bool> is_role(out.size()), drop(out.size());
  for (std::size_t n = 0; n < out.size(); ++n) is_role[n] = drop[n] = role(out[n].first);
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (!is_role[n]) continue;
    std::size_t best = out.size(), distance = std::numeric_limits<std::size_t>::max();
    for (std::size_t m = 0; m < out.size(); ++m) {
      const std::size_t a = out[m].first, b = out[n].first;
      if (is_role[m] || !same_sentence_tokens(sentence_start, a, b)) continue;
      const std::size_t d = a > b ? a - b : b - a;
      if (d < distance) best = m, distance = d;
    }
    if (best < out.size()) drop[best] = true;
  }
  // Every mention of those names ("as Norman Bates … the influence of mother on Norman").
  std::set<std::string> dropped_names;
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (drop[n]) dropped_names.insert(text::to_lower(tokens[out[n].first].surface(text)));
  }
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (dropped_names.count(text::to_lower(tokens[out[n].first].surface(text)))) drop[n] = true;
  }
  std::vector<std::pair<std::size_t, knowledge::Gender>> kept;
  for (std::size_t n = 0; n < out.size(); ++n) {
    if (!drop[n]) {
      kept.push_back(out[n]);
      continue;
    }
    dropped.push_back({MutationKind::kName, "", std::string(tokens[out[n].first].surface(text)), "",
                       is_role[n] ? "a role: a name after 'as', played by someone"
                                  : "an actor or a role: a name after 'as' in its sentence"});
  }
  return kept;
}

bool Perturbator::lexicon_word(const std::string& lemma) const {
  return attribute_.uses_gender_finder && r_.gender_lexicon && r_.gender_lexicon->find(lemma);
}

bool Perturbator::may_stand_bare(const std::string& lemma) const {
  if (!attribute_.uses_gender_finder || !r_.gender_lexicon) return false;
  const auto* e = r_.gender_lexicon->find(lemma);
  return e && (e->category == "kinship" || e->category == "address" || e->category == "nobility");
}

bool Perturbator::known_capitalised_as_name(const std::string& word) const {
  if (const auto* upper = r_.tagger->tables().find_word(text::upper_first(word))) {
    for (const auto& c : *upper) {
      if (c.tag == impl_->nnp) return true;
    }
  }
  return false;
}

bool Perturbator::modifies_next_noun(const text::TaggedText& tagged,
                                     const std::vector<std::string>& words,
                                     const std::vector<std::size_t>& sentence_of, std::size_t i,
                                     bool plural) const {
  const std::size_t j = i + 1;
  if (j >= words.size() || sentence_of[j] != sentence_of[i]) return false;
  const auto tag = tagged.tags[j];
  if (tag != impl_->nn && tag != impl_->nns) return false;
  const std::string& next = words[j];
  // A plural is seldom a modifier: "the actors share", "viewers feeling" (a verb read as nn).
  if (plural && tag == impl_->nn) return false;
  const auto& tables = r_.tagger->tables();
  // A plural after a singular is its verb when an object, an adverb or "to" follows ("the
  // widow lives alone", "her son visits her").
  if (!plural && tag == impl_->nns && j + 1 < words.size() &&
      sentence_of[j + 1] == sentence_of[i]) {
    const auto after = tables.tag_name(tagged.tags[j + 1]);
    if (after == "det" || after == "prp" || after == "prps" || after == "to" ||
        after.rfind("rb", 0) == 0)
      return false;
  }
  // The next word is the head when it is a person ("child actor", "twin brother").
  if (is_noun_word(next)) {
    std::string key = next;
    key += tag == impl_->nns ? "\t2" : "\t1";
    if (noun_info(key, next, tag == impl_->nns).person) return false;
  }
  // ... or a name: "director peter sheridan", "actor bill paxton" (a first name the lexicon
  // also knows as a common noun, followed by a name).
  if (reads_as_name(next)) return false;
  const auto* counts = tables.find_word(next);
  if (counts && j + 1 < words.size() && sentence_of[j + 1] == sentence_of[i] &&
      reads_as_name(words[j + 1]) && known_capitalised_as_name(next))
    return false;
  // ... or a verb the tagger read as a noun ("makes the viewer feel"): the lexicon sees it
  // more often as a verb than as a noun.
  if (counts) {
    double verb = 0, noun = 0;
    for (const auto& c : *counts) {
      const auto name = tables.tag_name(c.tag);
      if (name.rfind("vb", 0) == 0) verb += c.count;
      if (name.rfind("nn", 0) == 0) noun += c.count;
    }
    if (verb > noun) return false;
  }
  return true;
}

bool Perturbator::name_follows(std::string_view text, const text::TaggedText& tagged,
                               const std::vector<bool>& sentence_start,
                               const PersonContext& context, std::size_t t,
                               bool across_sentences) const {
  const auto& tokens = tagged.tokens;
  const std::size_t j = t + 1;
  if (j >= tokens.size() || (sentence_start[j] && !across_sentences)) return false;
  const auto next = tokens[j].surface(text);
  // A name is a noun or, lower-cased, an adjective to the tagger; not "on" ("the influence of
  // mother on Norman": "On" is a proper noun of the lexicon too).
  if (!is_noun_word(next) || !impl_->nominal[tagged.tags[j]]) return false;
  // Nor a name that an adjective is made of ("a savage john waters-like humor").
  if (j + 1 < tokens.size() && !sentence_start[j + 1] &&
      adjective_from_name(text::to_lower(tokens[j + 1].surface(text))))
    return false;
  if (r_.first_names && r_.first_names->gender_of(next) != knowledge::Gender::kNone) return true;
  if (upper_first(next))
    return context.case_informative() &&
           (tagged.tags[j] == impl_->nnp || tagged.tags[j] == impl_->nnps);
  const auto lower = text::to_lower(next);
  if (reads_as_name(lower)) return true;
  return j + 1 < tokens.size() && !sentence_start[j + 1] && known_capitalised_as_name(lower) &&
         reads_as_name(text::to_lower(tokens[j + 1].surface(text)));
}

Perturbator::PersonNouns Perturbator::person_nouns(std::string_view text,
                                                   const text::TaggedText& tagged,
                                                   const std::vector<bool>& sentence_start,
                                                   const PersonContext& context,
                                                   std::vector<DroppedCandidate>& dropped) const {
  const auto& tokens = tagged.tokens;
  // A lower-case noun the tagger's lexicon does not know, before one word that reads as a
  // name and is not a first name, is itself the first name of a full name ("dana janklowicz-mann
  // and amir mann": WordNet knows "amir" as "emir"; "raja amari", "piper perabo"), not a role
  // before one ("director peter sheridan", "novelist thulani davis": nouns of the lexicon;
  // "filmmaker spike lee": a name of two words; "skateboarder tony hawk": a first name).
  const auto before_name = [&](std::size_t t) {
    if (!name_follows(text, tagged, sentence_start, context, t, false)) return false;
    const auto noun = tokens[t].surface(text);
    if (upper_first(noun) || r_.tagger->tables().find_word(text::to_lower(noun))) return true;
    const std::string next = text::to_lower(tokens[t + 1].surface(text));
    return (r_.first_names && r_.first_names->gender_of(next) != knowledge::Gender::kNone) ||
           name_follows(text, tagged, sentence_start, context, t + 1, false);
  };
  PersonNouns out;
  for (const auto& [i, plural] : noun_tokens(text, tagged, sentence_start)) {
    const auto surface = without_dot(tokens[i].surface(text));
    std::string key = text::to_lower(surface);
    key += plural ? "\t2" : "\t1";
    const NounInfo& info = noun_info(key, surface, plural);
    if (!info.person) continue;
    if (options_.narrow_persons) {
      std::string why = context.noun_blocked(i, plural, may_stand_bare(info.lemma), before_name);
      // A capitalised first name is a name, unless the lexicon lists it ("Buck", not "Lady").
      if (why.empty() && r_.first_names && upper_first(surface) && !lexicon_word(info.lemma) &&
          r_.first_names->gender_of(surface) != knowledge::Gender::kNone)
        why = "a first name, not a common noun here";
      // Before an adjective made from a name, the noun modifies the phrase it opens ("a savage
      // john waters-like humor").
      for (std::size_t k = i + 1; why.empty() && k <= i + 2 && k < tokens.size(); ++k) {
        if (sentence_start[k]) break;
        const std::string w = text::to_lower(tokens[k].surface(text));
        if (adjective_from_name(w)) why = "modifies the phrase after it ('" + w + "')";
      }
      // A title of address before a common word is part of a work's title ("mr . deeds").
      if (why.empty() && is_title(surface)) {
        std::size_t t = i;
        if (t + 1 < tokens.size() && tokens[t + 1].text == ".") ++t;
        // (The sentence splitter ends a sentence at "mr ." in lower-cased text.)
        if (t + 1 < tokens.size() && is_noun_word(tokens[t + 1].surface(text)) &&
            !name_follows(text, tagged, sentence_start, context, t, true))
          why = "part of a title: a title of address before a common word";
      }
      if (!why.empty()) {
        dropped.push_back({info.neutral ? MutationKind::kActive : MutationKind::kAnalogy, "",
                           std::string(surface), "", "not a person here: " + why});
        continue;
      }
    }
    out.token.push_back(i);
    out.info.push_back(&info);
    out.plural.push_back(info.lemma != text::to_lower(surface));
  }
  return out;
}

}  // namespace assay::fairness
